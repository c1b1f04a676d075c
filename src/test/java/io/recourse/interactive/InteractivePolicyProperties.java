package io.recourse.interactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.classification.Code;
import io.recourse.classification.Confidence;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.statistics.Statistics;

/** Properties of the interactive schedule and state machine (DESIGN §6.2, §6.3). */
class InteractivePolicyProperties {

    private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
    private static final InteractiveConfig CONFIG = InteractiveConfig.defaults();

    // ------------------------------------------------------------------ schedule arithmetic

    @Property
    void jitteredDelaysStayWithinTwentyPercentOfNominal(@ForAll @StringLength(max = 40) String session,
                                                        @ForAll @IntRange(min = 1, max = 100_000) int chainStart,
                                                        @ForAll @IntRange(min = 1, max = 5) int attempt) {
        long nominal = CONFIG.nominalDelay(attempt).toMillis();

        long delay = RetrySchedule.jitteredDelay(CONFIG, JitterSource.hashed(), session, chainStart, attempt).toMillis();

        assertThat(delay).isBetween(Math.round(nominal * 0.8), Math.round(nominal * 1.2));
    }

    @Property
    void aRetryAfterHintIsALowerBoundAndNeverShortensTheJitteredDelay(
            @ForAll @StringLength(max = 40) String session,
            @ForAll @IntRange(min = 1, max = 100_000) int chainStart,
            @ForAll @IntRange(min = 1, max = 5) int attempt,
            @ForAll @IntRange(min = 0, max = 1_000_000) int nowOffsetMillis,
            @ForAll @IntRange(min = -120_000, max = 120_000) int hintOffsetMillis) {
        Instant now = T0.plusMillis(nowOffsetMillis);
        Instant hint = now.plusMillis(hintOffsetMillis);
        Duration jittered = RetrySchedule.jitteredDelay(CONFIG, JitterSource.hashed(), session, chainStart, attempt);

        Instant retryAt = RetrySchedule.retryAt(CONFIG, JitterSource.hashed(), session, chainStart, attempt, now, hint);

        assertThat(retryAt).isAfterOrEqualTo(hint);
        assertThat(retryAt).isAfterOrEqualTo(now.plus(jittered));
        assertThat(retryAt).isIn(hint, now.plus(jittered));
    }

    @Property
    void theSameFailureGivesTheSameRetryAt(@ForAll @StringLength(min = 1, max = 40) String session,
                                           @ForAll @IntRange(min = 1, max = 1000) int generation,
                                           @ForAll @IntRange(min = 0, max = 100_000) int lagMillis) {
        Instant failedAt = T0.plusSeconds(generation);
        Instant now = failedAt.plusMillis(lagMillis % 300_000);
        TurnContext ctx = Turns.user(session, generation);
        TurnOutcome outcome = Turns.failed(ctx, Code.PROVIDER_OVERLOADED, failedAt);

        Instant first = scheduleOnce(InteractiveRecoveryPolicy.defaults(), ctx, outcome, now);
        Instant second = scheduleOnce(InteractiveRecoveryPolicy.defaults(), ctx, outcome, now);

        assertThat(first).isNotNull().isEqualTo(second);
    }

    private static Instant scheduleOnce(InteractiveRecoveryPolicy policy, TurnContext ctx, TurnOutcome outcome, Instant now) {
        SessionState s = policy.apply(null, Turns.started(ctx, outcome.occurredAt()), outcome.occurredAt()).state();
        return policy.apply(s, outcome, now).recoveryState().retryAt();
    }

    // ------------------------------------------------------------------ arbitrary event sequences

    /** One step of an arbitrary session history; {@code a} and {@code b} parameterize it. */
    record Step(Kind kind, int a, int b) {
    }

    enum Kind {
        USER_PROMPT_FAILS, USER_PROMPT_COMPLETES, NEW_PROMPT_STARTS, RETRY_STARTS, RETRY_FAILS, RETRY_COMPLETES,
        RETRY_EXPIRES, ACK_DISPATCHED, ACK_FAILED, ACK_FOR_OLD_COMMAND, CONTROL, ADVANCE, RESTART, STALE_OUTCOME,
        DUPLICATE_OUTCOME, SESSION_STOPPED, NEXT_TIMER, USER_PROMPT_FAILS_WHEN_IDLE
    }

    @Provide
    Arbitrary<List<Step>> histories() {
        Arbitrary<Step> step = Combinators.combine(
                Arbitraries.of(Kind.class),
                Arbitraries.integers().between(0, 1000),
                Arbitraries.integers().between(0, 1000)).as(Step::new);
        // the punctuator and failing retries dominate, so chains get long enough to reach their budget
        Arbitrary<Step> chainHeavy = Arbitraries.frequencyOf(
                Tuple.of(1, step),
                Tuple.of(4, Arbitraries.integers().between(0, 1000).map(a -> new Step(Kind.NEXT_TIMER, a, 0))),
                Tuple.of(8, Arbitraries.integers().between(1, 1000).map(a -> new Step(Kind.RETRY_FAILS, a, 0))),
                Tuple.of(1, Arbitraries.integers().between(1, 1000).map(b -> new Step(Kind.USER_PROMPT_FAILS_WHEN_IDLE, 0, b))));
        return chainHeavy.list().ofMinSize(10).ofMaxSize(120);
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
                        d.apply(new KanbanDispatchAck(pending.commandId(),
                                s.kind() == Kind.ACK_DISPATCHED ? AckStatus.DISPATCHED : AckStatus.FAILED,
                                s.a() % 2 == 0 ? "superseded" : "dispatch_failed", session, nextGeneration, d.now));
                    }
                }
                case ACK_FOR_OLD_COMMAND -> {
                    if (d.commands.size() > 1) {
                        RetryCommand old = d.commands.get(s.a() % (d.commands.size() - 1));
                        d.apply(new KanbanDispatchAck(old.commandId(), AckStatus.DISPATCHED, null, session, 1, d.now));
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
                    TimerKind first = d.timers.isEmpty() ? TimerKind.SESSION_EXPIRY : d.timers.first().kind();
                    if (first == TimerKind.RETRY || (first == TimerKind.DISPATCH_TIMEOUT && s.a() % 4 == 0)) {
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

    @Property(tries = 1000)
    void neverTwoRetryCommandsForOneAttemptOfAChain(@ForAll("histories") List<Step> steps) {
        SessionDriver d = play(steps, new InteractiveRecoveryPolicy(CONFIG, JitterSource.hashed()));

        Statistics.label("highest attempt issued")
                .collect(d.commands.stream().mapToInt(RetryCommand::attempt).max().orElse(0));
        Set<String> chainAttempts = new HashSet<>();
        Set<String> commandIds = new HashSet<>();
        for (RetryCommand c : d.commands) {
            assertThat(chainAttempts.add(c.chainStartGeneration() + "#" + c.attempt()))
                    .as("second command for chain %d attempt %d", c.chainStartGeneration(), c.attempt()).isTrue();
            assertThat(commandIds.add(c.commandId())).as("duplicate command id %s", c.commandId()).isTrue();
        }
        // the histories are only worth something if some of them run a chain to its last attempt
        Statistics.label("highest attempt issued").coverage(checker -> checker.check(5).count(n -> n >= 1));
    }

    @Property(tries = 500)
    void attemptsNeverExceedTheBudget(@ForAll("histories") List<Step> steps) {
        SessionDriver d = play(steps, new InteractiveRecoveryPolicy(CONFIG, JitterSource.hashed()));

        assertThat(d.commands).allSatisfy(c -> {
            assertThat(c.attempt()).isBetween(1, 5);
            assertThat(c.maxAttempts()).isEqualTo(5);
            assertThat(c.issuedAt()).isAfterOrEqualTo(c.retryAt());
        });
        assertThat(d.published).allSatisfy(r -> assertThat(r.attempt()).isBetween(0, 5));
    }

    @Property(tries = 100)
    void theSameHistoryGivesTheSameDecisions(@ForAll("histories") List<Step> steps) {
        List<Decision> first = new ArrayList<>(play(steps, InteractiveRecoveryPolicy.defaults()).decisions);
        List<Decision> second = new ArrayList<>(play(steps, InteractiveRecoveryPolicy.defaults()).decisions);

        assertThat(second).isEqualTo(first);
    }

    @Property(tries = 200)
    void aUiNeverSeesACountdownWithoutAnArmedTimer(@ForAll("histories") List<Step> steps) {
        SessionDriver d = play(steps, new InteractiveRecoveryPolicy(CONFIG, JitterSource.hashed()));

        if (d.state != null && d.state.status() == RecoveryStatus.SCHEDULED) {
            assertThat(d.timers).contains(new TimerEntry(TimerKind.RETRY, d.state.chain().retryAt(), d.state.sessionId()));
        }
        if (!d.published.isEmpty() && d.state != null) {
            assertThat(d.lastPublished().status()).isEqualTo(d.state.status());
        }
    }

    @Property
    void timerKeysRoundTripAndSortLikeTheirEntries(@ForAll("timerEntries") TimerEntry a, @ForAll("timerEntries") TimerEntry b) {
        byte[] ka = TimerKey.encode(a);
        byte[] kb = TimerKey.encode(b);

        assertThat(TimerKey.decode(ka)).isEqualTo(a);
        assertThat(Integer.signum(TimerKey.ORDER.compare(ka, kb))).isEqualTo(Integer.signum(a.compareTo(b)));
    }

    @Provide
    Arbitrary<TimerEntry> timerEntries() {
        return Combinators.combine(
                Arbitraries.of(TimerKind.class),
                Arbitraries.longs().between(0, 4_102_444_800_000L).map(Instant::ofEpochMilli),
                Arbitraries.strings().withChars("ab/\u00e9\u4e16-_1").ofMaxLength(12)
                        .injectDuplicates(0.3)).as(TimerEntry::new);
    }
}
