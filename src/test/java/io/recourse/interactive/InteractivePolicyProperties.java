package io.recourse.interactive;

import io.recourse.kit.TimeIndexKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnOutcome;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.DispatchAckReason;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Properties of the interactive schedule and state machine (DESIGN §6.2, §6.3), driven by
 * QuickTheories with a fixed seed per class.
 */
public class InteractivePolicyProperties {

    /** Fixed so a failure reproduces on every machine; change it to explore other inputs. */
    private static final long SEED = 0x4B41_4E42_414EL;

    private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
    private static final InteractiveConfig CONFIG = InteractiveConfig.defaults();

    private static QuickTheory theory(int examples) {
        return qt().withFixedSeed(SEED).withExamples(examples);
    }

    private static Gen<String> sessionIds() {
        return strings().betweenCodePoints(0x20, 0xD7FF).ofLengthBetween(0, 40);
    }

    // ------------------------------------------------------------------ schedule arithmetic

    @Test
    public void jitteredDelaysStayWithinTwentyPercentOfNominal() {
        theory(1000).forAll(sessionIds(), integers().between(1, 100_000), integers().between(1, 5))
                .checkAssert((session, chainStart, attempt) -> {
                    long nominal = CONFIG.nominalDelay(attempt).toMillis();

                    long delay = RetrySchedule.jitteredDelay(CONFIG, JitterSource.hashed(), session, chainStart, attempt)
                            .toMillis();

                    assertThat(delay).isBetween(Math.round(nominal * 0.8), Math.round(nominal * 1.2));
                });
    }

    @Test
    public void aRetryAfterHintIsALowerBoundAndNeverShortensTheJitteredDelay() {
        theory(1000).forAll(sessionIds(), integers().between(1, 100_000), integers().between(1, 5),
                        integers().between(-120_000, 120_000))
                .checkAssert((session, chainStart, attempt, hintOffsetMillis) -> {
                    Instant now = T0.plusMillis(chainStart * 7L);
                    Instant hint = now.plusMillis(hintOffsetMillis);
                    Duration jittered = RetrySchedule.jitteredDelay(CONFIG, JitterSource.hashed(), session, chainStart, attempt);

                    Instant retryAt = RetrySchedule.retryAt(CONFIG, JitterSource.hashed(), session, chainStart, attempt, now, hint);

                    assertThat(retryAt).isAfterOrEqualTo(hint);
                    assertThat(retryAt).isAfterOrEqualTo(now.plus(jittered));
                    assertThat(retryAt).isIn(hint, now.plus(jittered));
                });
    }

    @Test
    public void theSameFailureGivesTheSameRetryAt() {
        theory(300).forAll(sessionIds(), integers().between(1, 1000), integers().between(0, 299_999))
                .checkAssert((session, generation, lagMillis) -> {
                    Instant failedAt = T0.plusSeconds(generation);
                    Instant now = failedAt.plusMillis(lagMillis);
                    TurnContext ctx = Turns.user(session, generation);
                    TurnOutcome outcome = Turns.failed(ctx, Code.PROVIDER_OVERLOADED, failedAt);

                    Instant onTime = scheduleOnce(InteractiveRecoveryPolicy.defaults(), ctx, outcome, failedAt);
                    Instant late = scheduleOnce(InteractiveRecoveryPolicy.defaults(), ctx, outcome, now);

                    // processed at once or up to the staleness bound later (a lagging task, a replay
                    // after a crash): the same instant, counted from the failure's record time
                    assertThat(late).isNotNull().isEqualTo(onTime);
                });
    }

    private static Instant scheduleOnce(InteractiveRecoveryPolicy policy, TurnContext ctx, TurnOutcome outcome, Instant now) {
        SessionState s = policy.apply(null, Turns.started(ctx, outcome.occurredAt()), outcome.occurredAt()).state();
        return policy.apply(s, outcome, now).recoveryState().retryAt();
    }

    @Test
    public void timerKeysRoundTripAndSortLikeTheirEntries() {
        theory(2000).forAll(timerEntries(), timerEntries()).checkAssert((a, b) -> {
            byte[] ka = a.key();
            byte[] kb = b.key();

            assertThat(TimerEntry.fromKey(ka)).isEqualTo(a);
            assertThat(Integer.signum(TimeIndexKey.ORDER.compare(ka, kb))).isEqualTo(Integer.signum(a.compareTo(b)));
        });
    }

    private static Gen<TimerEntry> timerEntries() {
        Gen<String> sessions = Generate.oneOf(
                lists().of(Generate.pick(List.of("a", "b", "/", "\u00e9", "\u4e16", "-", "1"))).ofSizeBetween(0, 6)
                        .map(parts -> String.join("", parts)),
                Generate.pick(List.of("a", "ab", "a/b")));
        Gen<Instant> instants = Generate.oneOf(
                longs().between(0, 4_102_444_800_000L),
                Generate.pick(List.of(0L, 127L, 128L, 255L, 256L, 1L << 40))).map(Instant::ofEpochMilli);
        return Generate.enumValues(InteractiveTimerKind.class).zip(instants, sessions, (k, t, s) -> new TimerEntry(k, t, s));
    }

    // ------------------------------------------------------------------ arbitrary event sequences

    /** One step of an arbitrary session history; {@code a} and {@code b} parameterize it. */
    public record Step(Kind kind, int a, int b) {
    }

    public enum Kind {
        USER_PROMPT_FAILS, USER_PROMPT_COMPLETES, NEW_PROMPT_STARTS, RETRY_STARTS, RETRY_FAILS, RETRY_COMPLETES,
        RETRY_EXPIRES, ACK_DISPATCHED, ACK_FAILED, ACK_FOR_OLD_COMMAND, CONTROL, ADVANCE, RESTART, STALE_OUTCOME,
        DUPLICATE_OUTCOME, SESSION_STOPPED, NEXT_TIMER, USER_PROMPT_FAILS_WHEN_IDLE
    }

    /**
     * Histories of 10..120 steps. Any step can occur, but the punctuator, the dispatcher running
     * the command it got, and a user prompt failing while idle dominate, so that chains get long
     * enough to reach their budget ({@link #someHistoriesRunAChainToItsLastAttempt()}).
     */
    private static Gen<List<Step>> histories() {
        Gen<Step> any = Generate.enumValues(Kind.class).zip(integers().between(0, 1000), integers().between(0, 1000), Step::new);
        Gen<Step> step = Generate.frequency(List.of(
                Pair.of(1, any),
                Pair.of(4, integers().between(0, 1000).map(a -> new Step(Kind.NEXT_TIMER, a, 0))),
                Pair.of(8, integers().between(1, 1000).map(a -> new Step(Kind.RETRY_FAILS, a, 0))),
                Pair.of(1, integers().between(1, 1000).map(b -> new Step(Kind.USER_PROMPT_FAILS_WHEN_IDLE, 0, b)))));
        return lists().of(step).ofSizeBetween(10, 120);
    }

    /** Plays a history against one session: a tiny gateway + dispatcher + punctuator. */
    private static SessionDriver play(List<Step> steps, InteractiveRecoveryPolicy policy) {
        String session = "prop/session";
        SessionDriver d = new SessionDriver(policy, T0);
        int nextGeneration = 1;
        TurnOutcome lastOutcome = null;
        int started = 0;
        Code[] codes = Code.values();
        for (Step s : steps) {
            RetryCommand pending = d.commands.isEmpty() ? null : d.lastCommand();
            switch (s.kind()) {
                case USER_PROMPT_FAILS, USER_PROMPT_COMPLETES, NEW_PROMPT_STARTS, USER_PROMPT_FAILS_WHEN_IDLE -> {
                    if (s.kind() == Kind.USER_PROMPT_FAILS_WHEN_IDLE && d.state != null && d.state.armed()) {
                        continue;
                    }
                    TurnContext ctx = Turns.user(session, nextGeneration++);
                    d.apply(Turns.started(ctx, d.now));
                    if (s.kind() == Kind.USER_PROMPT_FAILS || s.kind() == Kind.USER_PROMPT_FAILS_WHEN_IDLE) {
                        Code code = s.a() % 2 == 0 ? Code.PROVIDER_OVERLOADED : codes[s.a() % codes.length];
                        lastOutcome = Turns.failed(ctx, Turns.classification(code,
                                s.b() % 5 == 0 ? Confidence.MEDIUM : Confidence.HIGH,
                                s.b() % 3 == 0 ? d.now.plusSeconds(s.b() % 90) : null), s.b() % 7 != 0, s.b() % 4 == 0, d.now);
                        d.apply(lastOutcome);
                    } else if (s.kind() == Kind.USER_PROMPT_COMPLETES) {
                        lastOutcome = Turns.completed(ctx, d.now);
                        d.apply(lastOutcome);
                    }
                }
                case RETRY_STARTS, RETRY_FAILS, RETRY_COMPLETES, RETRY_EXPIRES -> {
                    // the dispatcher runs each command it received once; now and then a stray old one
                    if (d.commands.size() > started) {
                        started = d.commands.size();
                    } else if (pending == null || s.a() % 50 != 0) {
                        continue;
                    }
                    Integer known = d.state == null || d.state.chain() == null ? null : d.state.chain().retryGeneration();
                    int g = known != null && s.a() % 3 != 0 ? known : nextGeneration++;
                    nextGeneration = Math.max(nextGeneration, g + 1);
                    TurnContext ctx = Turns.retry(session, g, pending);
                    d.apply(Turns.startedRetry(ctx, pending, d.now));
                    if (s.kind() == Kind.RETRY_FAILS) {
                        lastOutcome = Turns.failed(ctx, s.a() % 10 == 0 ? Code.AUTH_REQUIRED : Code.MODEL_CAPACITY, d.now);
                        d.apply(lastOutcome);
                    } else if (s.kind() == Kind.RETRY_COMPLETES) {
                        lastOutcome = Turns.completed(ctx, d.now);
                        d.apply(lastOutcome);
                    } else if (s.kind() == Kind.RETRY_EXPIRES) {
                        d.apply(Turns.expired(ctx, d.now));
                    }
                }
                case ACK_DISPATCHED, ACK_FAILED -> {
                    if (pending != null) {
                        d.apply(new InteractiveDispatchAck(pending.commandId(),
                                s.kind() == Kind.ACK_DISPATCHED ? AckStatus.DISPATCHED : AckStatus.FAILED,
                                s.a() % 2 == 0 ? DispatchAckReason.SUPERSEDED : DispatchAckReason.DISPATCH_FAILED, session, nextGeneration, d.now));
                    }
                }
                case ACK_FOR_OLD_COMMAND -> {
                    if (d.commands.size() > 1) {
                        RetryCommand old = d.commands.get(s.a() % (d.commands.size() - 1));
                        d.apply(new InteractiveDispatchAck(old.commandId(), AckStatus.DISPATCHED, null, session, 1, d.now));
                    }
                }
                case CONTROL -> {
                    ControlAction action = ControlAction.values()[s.a() % ControlAction.values().length];
                    int highest = d.state == null ? 0 : d.state.highestGeneration();
                    Integer expected = s.b() % 3 == 0 ? null : Math.max(0, highest - s.b() % 2);
                    d.apply(new SessionControl(action, session, expected, d.now));
                }
                case ADVANCE -> d.advanceBy(Duration.ofMillis(s.a() * 150L));
                case NEXT_TIMER -> {
                    // the dispatcher usually answers before its timeout
                    InteractiveTimerKind first = d.timers.isEmpty() ? InteractiveTimerKind.SESSION_EXPIRY : d.timers.first().kind();
                    if (first == InteractiveTimerKind.RETRY || (first == InteractiveTimerKind.DISPATCH_TIMEOUT && s.a() % 4 == 0)) {
                        d.advanceTo(d.timers.first().dueAt());
                    }
                }
                case RESTART -> {
                    d.sleepUntil(d.now.plusSeconds(s.a() % 500));
                    d.restart(new InteractiveRecoveryPolicy(CONFIG, JitterSource.hashed()), d.now);
                    d.advanceTo(d.now);
                }
                case STALE_OUTCOME -> {
                    if (nextGeneration > 2) {
                        TurnContext old = Turns.user(session, 1 + s.a() % (nextGeneration - 2));
                        d.apply(Turns.failed(old, Code.PROVIDER_OVERLOADED, d.now));
                    }
                }
                case DUPLICATE_OUTCOME -> {
                    if (lastOutcome != null) {
                        d.apply(lastOutcome);
                    }
                }
                case SESSION_STOPPED -> d.apply(Turns.stopped(session, d.now));
            }
            if (d.state != null && d.state.chain() != null) {
                assertThat(d.state.chain().attempt()).isBetween(1, CONFIG.maxAttempts());
            }
        }
        d.advanceBy(Duration.ofMinutes(30));
        return d;
    }

    @Test
    public void neverTwoRetryCommandsForOneAttemptOfAChain() {
        theory(1000).forAll(histories()).checkAssert(steps -> {
            SessionDriver d = play(steps, new InteractiveRecoveryPolicy(CONFIG, JitterSource.hashed()));

            Set<String> chainAttempts = new HashSet<>();
            Set<String> commandIds = new HashSet<>();
            for (RetryCommand c : d.commands) {
                assertThat(chainAttempts.add(c.chainStartGeneration() + "#" + c.attempt()))
                        .as("second command for chain %d attempt %d", c.chainStartGeneration(), c.attempt()).isTrue();
                assertThat(commandIds.add(c.commandId())).as("duplicate command id %s", c.commandId()).isTrue();
            }
        });
    }

    @Test
    public void attemptsNeverExceedTheBudget() {
        theory(500).forAll(histories()).checkAssert(steps -> {
            SessionDriver d = play(steps, new InteractiveRecoveryPolicy(CONFIG, JitterSource.hashed()));

            assertThat(d.commands).allSatisfy(c -> {
                assertThat(c.attempt()).isBetween(1, 5);
                assertThat(c.maxAttempts()).isEqualTo(5);
                assertThat(c.issuedAt()).isAfterOrEqualTo(c.retryAt());
            });
            assertThat(d.published).allSatisfy(r -> assertThat(r.attempt()).isBetween(0, 5));
        });
    }

    @Test
    public void theSameHistoryGivesTheSameDecisions() {
        theory(100).forAll(histories()).checkAssert(steps -> {
            List<RecoveryDecision> first = new ArrayList<>(play(steps, InteractiveRecoveryPolicy.defaults()).decisions);
            List<RecoveryDecision> second = new ArrayList<>(play(steps, InteractiveRecoveryPolicy.defaults()).decisions);

            assertThat(second).isEqualTo(first);
        });
    }

    @Test
    public void aUiNeverSeesACountdownWithoutAnArmedTimer() {
        theory(300).forAll(histories()).checkAssert(steps -> {
            SessionDriver d = play(steps, new InteractiveRecoveryPolicy(CONFIG, JitterSource.hashed()));

            if (d.state != null && d.state.status() == RecoveryStatus.SCHEDULED) {
                assertThat(d.timers).contains(new TimerEntry(InteractiveTimerKind.RETRY, d.state.chain().retryAt(), d.state.sessionId()));
            }
            if (!d.published.isEmpty() && d.state != null) {
                assertThat(d.lastPublished().status()).isEqualTo(d.state.status());
            }
        });
    }

    @Test
    public void someHistoriesRunAChainToItsLastAttempt() {
        // the properties above are only worth something if the histories reach deep chains
        TreeMap<Integer, Integer> highestAttempt = new TreeMap<>();
        theory(300).forAll(histories()).checkAssert(steps -> {
            SessionDriver d = play(steps, new InteractiveRecoveryPolicy(CONFIG, JitterSource.hashed()));
            highestAttempt.merge(d.commands.stream().mapToInt(RetryCommand::attempt).max().orElse(0), 1, Integer::sum);
        });

        assertThat(highestAttempt).containsKeys(0, 1, 2, 3, 4, 5);
    }
}
