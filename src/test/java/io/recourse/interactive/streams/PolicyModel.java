package io.recourse.interactive.streams;

import io.recourse.interactive.InteractiveInput;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.RecoveryDecision;
import io.recourse.interactive.SessionState;
import io.recourse.interactive.TimerEntry;
import io.recourse.taxonomy.Code;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The interactive owner's policy without Kafka, for the property tests: a session-state map and a
 * sorted time index kept as the processor keeps them (DESIGN §8), and the step alphabet the tests'
 * random interleavings are drawn from.
 */
final class PolicyModel {

    /**
     * Step kinds, weighted towards failures and clock advances so that chains run: 0 user turn fails,
     * 1 retry generation starts, 2 its outcome, 3 ack dispatched, 4 ack failed, 5 control, 6 advance.
     */
    static final int[] STEP_KINDS = {0, 0, 1, 1, 2, 3, 3, 4, 5, 6, 6, 6, 6};
    private static final List<Code> FAILURES = List.of(Code.PROVIDER_OVERLOADED, Code.RATE_LIMITED, Code.MODEL_CAPACITY,
            Code.PROVIDER_OVERLOADED, Code.AUTH_REQUIRED);

    final Map<String, SessionState> states = new HashMap<>();
    final TreeSet<TimerEntry> timers = new TreeSet<>();
    private final InteractiveRecoveryPolicy policy;

    PolicyModel(InteractiveRecoveryPolicy policy) {
        this.policy = policy;
    }

    /** The kind (0–6, see {@link #STEP_KINDS}) of step {@code n}. */
    static int kind(int n) {
        return STEP_KINDS[n % STEP_KINDS.length];
    }

    /** The code a user turn of step parameter {@code p} fails with: transient, throttled or hard. */
    static Code failureCode(int p) {
        return FAILURES.get(p % FAILURES.size());
    }

    /**
     * Applies {@code input} of session {@code s}, processed at {@code now} and recorded at
     * {@code recordTime}, to the state map and the time index; the decision's commands and recovery
     * state are the caller's to record.
     */
    RecoveryDecision apply(String s, InteractiveInput input, Instant now, Instant recordTime) {
        RecoveryDecision d = policy.apply(states.get(s), input, now, recordTime);
        if (d.expired()) {
            states.remove(s);
        } else if (d.changed()) {
            states.put(s, d.state());
        }
        d.cancelTimers().forEach(timers::remove);
        timers.addAll(d.armTimers());
        return d;
    }

    /** The earliest timer due at {@code now}, removed from the index, or {@code null} when none is. */
    TimerEntry pollDue(Instant now) {
        return !timers.isEmpty() && !timers.first().dueAt().isAfter(now) ? timers.pollFirst() : null;
    }
}
