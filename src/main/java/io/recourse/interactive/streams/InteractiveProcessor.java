package io.recourse.interactive.streams;

import io.recourse.avro.SessionStateValue;
import io.recourse.evidence.Outcome;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.ingress.ProfileKind;
import io.recourse.interactive.Disposition;
import io.recourse.interactive.InteractiveInput;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.InteractiveTimerKind;
import io.recourse.interactive.RecoveryDecision;
import io.recourse.interactive.RecoveryReason;
import io.recourse.interactive.RecoveryStatus;
import io.recourse.interactive.RetryCommand;
import io.recourse.interactive.SessionState;
import io.recourse.interactive.StartSettle;
import io.recourse.interactive.TimerEntry;
import io.recourse.interactive.TimerFired;
import io.recourse.kit.TimeIndex;
import java.time.Duration;
import java.time.Instant;
import java.util.function.UnaryOperator;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The interactive owner's processor (DESIGN §6, §8) — plumbing around the pure
 * {@link InteractiveRecoveryPolicy}: for every input (session event, control, ack) of a session it
 * loads the {@link SessionState} from the changelogged store {@value InteractiveTopology#SESSIONS_STORE},
 * applies the policy with {@code now} = the injected wall clock ({@code currentSystemTimeMs}) and the
 * input record's timestamp (mapped by {@code recordClock}) as its record time,
 * writes the new state (or deletes it when expired), cancels and arms timers in the time-indexed
 * store {@value InteractiveTopology#TIMERS_STORE}, and forwards the decision's RetryCommand and
 * RecoveryState (a tombstone when the state expired), each with its own instant as record timestamp
 * ({@code issued_at}, {@code updated_at}; a tombstone: now). Under {@code exactly_once_v2} all of this —
 * stores, changelogs, outputs — commits in one transaction.
 *
 * <p>A {@code WALL_CLOCK_TIME} punctuator range-scans the time index from
 * {@link io.recourse.kit.TimeIndexKey#lowerBound()} to {@link io.recourse.kit.TimeIndexKey#upperBound(Instant) upperBound(now)} (never the whole
 * store), and fires each due entry in key order (instant, kind, session) as {@link TimerFired},
 * deleting it first; {@code taskRunningSince} is the wall-clock instant of {@link #init}, which
 * Streams calls when the task reaches RUNNING after restoring its stores. For the start settle
 * ({@code recourse.interactive.start.settle.ms}, default 2 s) after that instant, due RETRY entries
 * stay in the index unfired (the decision of {@link StartSettle}): the session events restored or
 * buffered while the task was down (a newer prompt of the session) are applied first, so a retry never fires past a newer generation
 * the owner is about to see (the policy itself refuses a retry once it has seen one).
 *
 * <p>Record timestamps are broker wall-clock time ({@code LogAppendTime}); before the policy compares
 * a TurnOutcome's {@code recorded_at} with the injected clock (staleness, DESIGN §8) it is mapped onto
 * that clock by {@code recordClock} ({@link #onClock}): the identity in production, the demo's
 * {@code --time-scale} mapping ({@code ScaledTime::scaled}) otherwise.
 *
 * <p>Metrics ({@link RecourseMeters}, DESIGN §10): policy decisions on failed turns and stale
 * evidence under {@code context=kanban}; every fired timer's lag ({@code now − due}) under
 * {@code recourse_timer_lag_seconds{owner=interactive, kind=retry|dispatch_timeout|session_expiry}}.
 */
public final class InteractiveProcessor extends ContextualProcessor<String, InteractiveInput, String, InteractiveOutput> {

    private static final Logger LOG = LoggerFactory.getLogger(InteractiveProcessor.class);
    /** Value of a time-index entry: the key says everything. */
    private static final byte[] PRESENT = new byte[0];
    /** Due entries fired per punctuation at most; the rest fire at the next one (bounds a transaction). */
    static final int MAX_FIRED_PER_PUNCTUATION = 10_000;
    /** The interactive owner's punctuator: one scan per punctuation, every entry it found fires. */
    static final TimeIndex.Loop TIMER_LOOP = new TimeIndex.Loop(MAX_FIRED_PER_PUNCTUATION, false, false);
    /** The {@code owner} tag of this processor's timer lag. */
    static final String TIMER_OWNER = "interactive";

    private final InteractiveRecoveryPolicy policy;
    private final Duration punctuationInterval;
    private final UnaryOperator<Instant> recordClock;
    private final RecourseMeters meters;
    private final Duration startSettle;
    private KeyValueStore<String, SessionStateValue> sessions;
    private TimeIndex<byte[]> timers;
    private Instant taskRunningSince;

    InteractiveProcessor(InteractiveRecoveryPolicy policy, Duration punctuationInterval) {
        this(policy, punctuationInterval, UnaryOperator.identity());
    }

    InteractiveProcessor(InteractiveRecoveryPolicy policy, Duration punctuationInterval, UnaryOperator<Instant> recordClock) {
        this(policy, punctuationInterval, recordClock, RecourseMeters.global());
    }

    InteractiveProcessor(InteractiveRecoveryPolicy policy, Duration punctuationInterval, UnaryOperator<Instant> recordClock,
                         RecourseMeters meters) {
        this(policy, punctuationInterval, recordClock, meters, Duration.ZERO);
    }

    InteractiveProcessor(InteractiveRecoveryPolicy policy, Duration punctuationInterval, UnaryOperator<Instant> recordClock,
                         RecourseMeters meters, Duration startSettle) {
        this.startSettle = startSettle;
        this.policy = policy;
        this.punctuationInterval = punctuationInterval;
        this.recordClock = recordClock;
        this.meters = meters;
    }

    /**
     * {@code input} with every record-time instant mapped onto the injected clock by {@code recordClock}
     * (DESIGN §8): a TurnOutcome's {@code recorded_at} (its record's broker append time); every other
     * input unchanged (their instants are event times or already clock instants).
     */
    public static InteractiveInput onClock(InteractiveInput input, UnaryOperator<Instant> recordClock) {
        if (input instanceof InteractiveInput.Event e && e.event() instanceof TurnOutcome o && o.recordedAt() != null) {
            Instant mapped = recordClock.apply(o.recordedAt());
            if (!mapped.equals(o.recordedAt())) {
                return new InteractiveInput.Event(new TurnOutcome(o.context(), o.outcome(), o.launch(), o.stopReason(),
                        o.assistantOutputSeen(), o.toolActivitySeen(), o.replaySafe(), o.classification(), o.occurredAt(),
                        mapped));
            }
        }
        return input;
    }

    @Override
    public void init(ProcessorContext<String, InteractiveOutput> context) {
        super.init(context);
        sessions = context.getStateStore(InteractiveTopology.SESSIONS_STORE);
        timers = new TimeIndex<>(context.getStateStore(InteractiveTopology.TIMERS_STORE));
        taskRunningSince = now();
        context.schedule(punctuationInterval, PunctuationType.WALL_CLOCK_TIME, ms -> fireDue());
        LOG.debug("interactive task {} running since {}", context.taskId(), taskRunningSince);
    }

    @Override
    public void process(Record<String, InteractiveInput> record) {
        InteractiveInput input = record.value();
        if (input == null) {
            return;
        }
        apply(input.sessionId(), onClock(input, recordClock), now(),
                recordClock.apply(Instant.ofEpochMilli(record.timestamp())));
    }

    /** Fires every entry of the time index due at or before now, in key order. */
    void fireDue() {
        Instant now = now();
        timers.fireDue(now, TIMER_LOOP,
                key -> held(TimerEntry.fromKey(key), now),
                (key, present) -> {
                    TimerEntry entry = TimerEntry.fromKey(key);
                    meters.timerLag(TIMER_OWNER, entry.kind().wire(), Duration.between(entry.dueAt(), now));
                    apply(entry.sessionId(), new TimerFired(entry, taskRunningSince), now, now);
                });
    }

    /** Whether the due {@code entry} stays in the index at {@code now}: a RETRY entry during the start settle. */
    private boolean held(TimerEntry entry, Instant now) {
        return entry.kind() == InteractiveTimerKind.RETRY
                && !StartSettle.retry(now, taskRunningSince, startSettle, entry.dueAt()).fire();
    }

    private void apply(String sessionId, InteractiveInput input, Instant now, Instant recordTime) {
        SessionStateValue stored = sessions.get(sessionId);
        SessionState state = stored == null ? null : InteractiveAvro.fromAvro(stored);
        RecoveryDecision decision = policy.apply(state, input, now, recordTime);
        record(state, input, decision);
        if (decision.noop()) {
            LOG.debug("session {}: {} changes nothing", sessionId, kind(input));
            return;
        }
        LOG.debug("session {}: {} -> {}", sessionId, kind(input), decision);
        if (decision.expired()) {
            sessions.delete(sessionId);
        } else if (decision.changed()) {
            sessions.put(sessionId, InteractiveAvro.toAvro(decision.state()));
        }
        for (TimerEntry e : decision.cancelTimers()) {
            timers.cancel(e.key());
        }
        for (TimerEntry e : decision.armTimers()) {
            timers.arm(e.key(), PRESENT);
        }
        for (RetryCommand c : decision.commands()) {
            context().forward(new Record<>(sessionId, new InteractiveOutput.Command(
                    InteractiveAvro.toAvro(c, policy.config().dispatchTimeout())), c.issuedAt().toEpochMilli()));
        }
        if (decision.expired()) {
            context().forward(new Record<>(sessionId, new InteractiveOutput.State(null), now.toEpochMilli()));
        } else if (decision.recoveryState() != null) {
            context().forward(new Record<>(sessionId,
                    new InteractiveOutput.State(InteractiveAvro.toAvro(decision.recoveryState())),
                    decision.recoveryState().updatedAt().toEpochMilli()));
        }
    }

    /**
     * The metrics of one decision (DESIGN §10): when the policy settled a failed turn of a concrete
     * profile (the decision's state shows that turn as its last outcome, which it was not before),
     * {@code recourse_policy_decisions_total{context=kanban, code, result, agent_type, provider, rule_id}} with
     * {@link #result} and the failed turn's agent type, provider and rule, and
     * {@code recourse_stale_evidence_total{context=kanban}} when the reason is {@code stale_evidence}.
     */
    private void record(SessionState before, InteractiveInput input, RecoveryDecision decision) {
        if (!(input instanceof InteractiveInput.Event e) || !(e.event() instanceof TurnOutcome outcome)
                || outcome.outcome() != Outcome.FAILED || outcome.context().profileKind() != ProfileKind.CONCRETE) {
            return;
        }
        SessionState after = decision.state();
        int g = outcome.promptGeneration();
        if (after == null || after.code() == null || after.lastOutcomeGeneration() != g
                || before != null && before.lastOutcomeGeneration() >= g) {
            return;
        }
        meters.policyDecision(RecourseMeters.Context.KANBAN, after.code(), result(after.status()), outcome.context(),
                after.ruleId());
        if (after.reason() == RecoveryReason.STALE_EVIDENCE) {
            meters.staleEvidence(RecourseMeters.Context.KANBAN);
        }
    }

    /**
     * The {@code result} tag of a Kanban decision: {@code auto_retry} while a chain is armed, else the
     * status' wire name ({@code manual}, {@code exhausted}, {@code none} for codes outside provider policy).
     */
    static String result(RecoveryStatus status) {
        return status.armed() ? Disposition.AUTO_RETRY.wire() : status.wire();
    }

    private Instant now() {
        return Instant.ofEpochMilli(context().currentSystemTimeMs());
    }

    private static String kind(InteractiveInput input) {
        return input instanceof InteractiveInput.Event e ? e.event().getClass().getSimpleName()
                : input.getClass().getSimpleName();
    }
}
