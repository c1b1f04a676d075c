package io.recourse.interactive.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnOutcome;
import io.recourse.interactive.ControlAction;
import io.recourse.interactive.InteractiveConfig;
import io.recourse.interactive.InteractiveDispatchAck;
import io.recourse.interactive.InteractiveInput;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.JitterSource;
import io.recourse.interactive.RecoveryDecision;
import io.recourse.interactive.RecoveryState;
import io.recourse.interactive.RetryCommand;
import io.recourse.interactive.SessionControl;
import io.recourse.interactive.SessionState;
import io.recourse.interactive.TimerEntry;
import io.recourse.interactive.TimerFired;
import io.recourse.kit.TimeIndexKey;
import io.recourse.interactive.Turns;
import io.recourse.evidence.Outcome;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.DispatchAckReason;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Reprocessing gives the same instants (DESIGN §6.2, §8). For any sequence of inputs of two
 * sessions (user turns failing with transient and throttled codes, a gateway clock skewed by up to
 * ±3 min, retry turns, acks, controls, clock advances that fire the time index), a run that crashes
 * after any prefix — its state rebuilt from what the stores hold (the session store's Avro values,
 * the time index's keys), the inputs of the aborted transaction processed again later, within the
 * staleness bound and before the next punctuation — writes exactly the records (RetryCommands,
 * RecoveryStates, tombstones) of an uninterrupted run, and ends with the same stores.
 *
 * <p>A {@code retry_now} is kept out of the replayed window: it dispatches, and a dispatch's
 * {@code issued_at} is processing time by design (the dispatcher's window opens when the command
 * is written). The restart's own rules (start settle, dispatch timeout from the task's RUNNING) are
 * {@code InteractiveRestartIT}'s; here timers see the same {@code taskRunningSince} in both runs.
 */
public class InteractiveReplayProperties {

    private static final long SEED = 0x5245_504C_4159L;
    private static final Instant T0 = Instant.parse("2026-11-30T08:00:00Z");
    private static final InteractiveConfig CONFIG = InteractiveConfig.defaults();
    private static final InteractiveRecoveryPolicy POLICY = new InteractiveRecoveryPolicy(CONFIG, JitterSource.hashed());
    private static final int ADVANCE = 6;

    @Test
    public void aCrashAndAReplayWriteWhatAnUninterruptedRunWrites() {
        AtomicInteger lagged = new AtomicInteger();
        AtomicInteger scheduledInWindow = new AtomicInteger();
        qt().withFixedSeed(SEED).withExamples(200)
                .forAll(lists().of(integers().between(0, 9_999)).ofSizeBetween(5, 60),
                        integers().between(0, 59), integers().between(0, 300_000))
                .checkAssert((steps, crashAt, lagMillis) -> {
                    int k = Math.min(crashAt, steps.size());
                    // the aborted transaction: the inputs after the crash point up to the next punctuation
                    int end = k;
                    while (end < steps.size() && kind(steps.get(end)) != ADVANCE) {
                        end++;
                    }
                    long lag = end < steps.size()
                            ? Math.min(lagMillis, advanceOf(steps.get(end)).toMillis() - 1) : lagMillis;

                    Run uninterrupted = new Run();
                    for (int i = 0; i < steps.size(); i++) {
                        uninterrupted.step(steps.get(i), 0, i >= k && i < end);
                    }

                    Run crashed = new Run();
                    for (int i = 0; i < k; i++) {
                        crashed.step(steps.get(i), 0, false);
                    }
                    crashed.rebuildFromStores();
                    int before = crashed.scheduled;
                    for (int i = k; i < end; i++) {
                        crashed.step(steps.get(i), lag, true); // processed again, later
                    }
                    if (lag > 0 && end > k) {
                        lagged.incrementAndGet();
                    }
                    if (crashed.scheduled > before && lag > 0) {
                        scheduledInWindow.incrementAndGet();
                    }
                    for (int i = end; i < steps.size(); i++) {
                        crashed.step(steps.get(i), 0, false);
                    }

                    assertThat(crashed.outputs).isEqualTo(uninterrupted.outputs);
                    assertThat(crashed.states).isEqualTo(uninterrupted.states);
                    assertThat(crashed.timers).isEqualTo(uninterrupted.timers);
                });
        assertThat(lagged).as("examples replaying a window later").hasPositiveValue();
        assertThat(scheduledInWindow).as("examples scheduling a retry in the replayed window").hasPositiveValue();
    }

    private static int kind(int n) {
        return PolicyModel.kind(n);
    }

    private static Duration advanceOf(int n) {
        int p = n / PolicyModel.STEP_KINDS.length;
        return p % 25 == 0 ? Duration.ofSeconds(301) : Duration.ofSeconds(p % 40 + 1);
    }

    /** One run: the policy over a state map and a time index, as the processor keeps them. */
    private static final class Run {

        final PolicyModel model = new PolicyModel(POLICY);
        final Map<String, SessionState> states = model.states;
        final TreeSet<TimerEntry> timers = model.timers;
        final List<Object> outputs = new ArrayList<>();
        final Map<String, Integer> nextGeneration = new HashMap<>();
        final Map<String, TurnContext> lastRetryTurn = new HashMap<>();
        Instant clock = T0;
        int scheduled;

        /** The crash: the in-memory state is lost; what the stores hold is read back. */
        void rebuildFromStores() {
            Map<String, SessionState> restored = new HashMap<>();
            states.forEach((s, st) -> restored.put(s, InteractiveAvro.fromAvro(InteractiveAvro.toAvro(st))));
            TreeMap<byte[], Boolean> index = new TreeMap<>(TimeIndexKey.ORDER);
            timers.forEach(e -> index.put(e.key(), true));
            states.clear();
            states.putAll(restored);
            timers.clear();
            index.keySet().forEach(k -> timers.add(TimerEntry.fromKey(k)));
        }

        /**
         * One step; inputs are recorded at {@code clock} and processed {@code lag} ms later
         * ({@code window}: a step of the replayed window, where a {@code retry_now} reads {@code cancel_retry}).
         */
        void step(int n, long lag, boolean window) {
            int p = n / PolicyModel.STEP_KINDS.length;
            String s = "s" + (p % 2);
            SessionState st = states.get(s);
            String pending = st == null || st.chain() == null ? null : st.chain().pendingCommandId();
            switch (kind(n)) {
                case 0 -> {
                    TurnContext ctx = Turns.user(s, nextGen(s));
                    input(InteractiveInput.of(Turns.started(ctx, clock)), lag);
                    Code code = PolicyModel.failureCode(p);
                    Instant gatewayClock = clock.plusSeconds(p % 361 - 180); // a gateway clock off by up to ±3 min
                    Instant hint = code == Code.RATE_LIMITED ? gatewayClock.plusSeconds(p % 50) : null;
                    TurnOutcome failed = new TurnOutcome(ctx, Outcome.FAILED, false, "end_turn", false, false,
                            p % 7 != 0, Turns.classification(code, Confidence.HIGH, hint), gatewayClock, clock);
                    input(InteractiveInput.of(failed), lag);
                }
                case 1 -> {
                    if (pending != null) {
                        RetryCommand command = lastCommand(s);
                        if (command != null && command.commandId().equals(pending)) {
                            TurnContext ctx = Turns.retry(s, nextGen(s), command);
                            lastRetryTurn.put(s, ctx);
                            input(InteractiveInput.of(Turns.startedRetry(ctx, command, clock)), lag);
                        }
                    }
                }
                case 2 -> {
                    TurnContext ctx = lastRetryTurn.remove(s);
                    if (ctx != null) {
                        input(InteractiveInput.of(switch (p % 4) {
                            case 0, 1 -> Turns.failed(ctx, Code.PROVIDER_OVERLOADED, clock);
                            case 2 -> Turns.completed(ctx, clock);
                            default -> Turns.expired(ctx, clock);
                        }), lag);
                    }
                }
                case 3, 4 -> {
                    if (pending != null) {
                        input(new InteractiveDispatchAck(pending, kind(n) == 3 ? AckStatus.DISPATCHED : AckStatus.FAILED,
                                p % 2 == 0 ? DispatchAckReason.SUPERSEDED : DispatchAckReason.DISPATCH_FAILED, s,
                                p % 2 == 0 ? null : nextGeneration.getOrDefault(s, 1), clock), lag);
                    }
                }
                case 5 -> {
                    ControlAction action = ControlAction.values()[p % ControlAction.values().length];
                    if (window && action == ControlAction.RETRY_NOW) {
                        action = ControlAction.CANCEL_RETRY;
                    }
                    Integer expected = p / 5 % 2 == 0 ? null : st == null ? 0 : st.highestGeneration();
                    input(new SessionControl(action, s, expected, clock), lag);
                }
                default -> advance(advanceOf(n));
            }
        }

        RetryCommand lastCommand(String s) {
            for (int i = outputs.size() - 1; i >= 0; i--) {
                if (outputs.get(i) instanceof RetryCommand c && c.sessionId().equals(s)) {
                    return c;
                }
            }
            return null;
        }

        int nextGen(String s) {
            int g = nextGeneration.getOrDefault(s, 1);
            nextGeneration.put(s, g + 1);
            return g;
        }

        void input(InteractiveInput input, long lag) {
            apply(input, clock.plusMillis(lag), clock);
        }

        void advance(Duration d) {
            clock = clock.plus(d);
            for (TimerEntry due = model.pollDue(clock); due != null; due = model.pollDue(clock)) {
                apply(new TimerFired(due, T0), clock, clock);
            }
        }

        void apply(InteractiveInput input, Instant now, Instant recordTime) {
            String s = input.sessionId();
            RecoveryDecision d = model.apply(s, input, now, recordTime);
            outputs.addAll(d.commands());
            if (d.expired()) {
                outputs.add("tombstone " + s);
            } else if (d.recoveryState() != null) {
                RecoveryState r = d.recoveryState();
                // as the topic holds it (Avro, epoch milliseconds)
                outputs.add(InteractiveAvro.fromAvro(InteractiveAvro.toAvro(r)));
                if (r.status() == io.recourse.interactive.RecoveryStatus.SCHEDULED) {
                    scheduled++;
                }
            }
        }
    }
}
