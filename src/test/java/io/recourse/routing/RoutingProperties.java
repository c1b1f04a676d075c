package io.recourse.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

/**
 * Invariants of the Office decisions over random scripted timelines (random profiles, runs,
 * failures of every code, progress, completions, controls, acks and clock advances), driven by
 * QuickTheories with a fixed seed.
 */
public class RoutingProperties {

    /** Fixed so a failure reproduces on every machine; change it to explore other inputs. */
    private static final long SEED = 0x524F_5554_494EL;
    private static final int EXAMPLES = 150;
    private static final Confidence[] CONFIDENCES = {Confidence.HIGH, Confidence.HIGH, Confidence.HIGH, Confidence.MEDIUM,
        Confidence.LOW};

    /** The fixed-seed theory every routing property runs under. */
    public static QuickTheory theory() {
        return qt().withFixedSeed(SEED).withExamples(EXAMPLES);
    }

    private static final List<String> RUNS = List.of("r0", "r1", "r2", "r3", "r4");

    /** One scripted step; fields unused by a kind are ignored. */
    public record Step(int kind, int run, Code code, Confidence confidence, boolean launch, boolean effects, int hint,
            RunControlAction action, boolean fenceOk, int seconds) {
    }

    /** A random profile shape: retry budget, wait, exhaustion action, fallback. */
    public record Shape(int retries, boolean waitOn, boolean stop, boolean fallback) {
    }

    /** Decodes one generated long into a step: each field from its own bits. */
    public static Step step(long v) {
        Code[] codes = Code.values();
        RunControlAction[] actions = RunControlAction.values();
        return new Step((int) ((v & 0xF) % 12), (int) (((v >>> 4) & 0xF) % RUNS.size()),
                codes[(int) (((v >>> 8) & 0xFF) % codes.length)], CONFIDENCES[(int) (((v >>> 16) & 0xF) % 5)],
                ((v >>> 20) & 1) == 1, ((v >>> 21) & 1) == 1, (int) (((v >>> 22) & 0xF) % 5),
                actions[(int) (((v >>> 26) & 0xF) % actions.length)], ((v >>> 30) & 3) != 0,
                1 + (int) (((v >>> 32) & 0xFFFF) % 900));
    }

    public static Gen<List<Step>> scripts() {
        return lists().of(longs().all().map(RoutingProperties::step)).ofSizeBetween(5, 60);
    }

    public static Gen<Shape> shapes() {
        return integers().between(0, 31).map(i -> new Shape(i & 3, (i & 4) != 0, (i & 8) != 0, (i & 16) != 0));
    }

    /** The three-candidate profile of a shape. */
    public static RouteConfig config(Shape s) {
        ClassPolicy t = new ClassPolicy(s.retries() == 0 ? RetryPolicy.OFF : RetryPolicy.of(s.retries(), 5),
                s.waitOn() ? WaitForReset.upTo(3600) : WaitForReset.OFF, s.stop() ? OnExhausted.STOP : OnExhausted.SKIP);
        ClassPolicy h = new ClassPolicy(RetryPolicy.OFF, s.waitOn() ? WaitForReset.upTo(3600) : WaitForReset.OFF,
                s.stop() ? OnExhausted.STOP : OnExhausted.SKIP);
        List<Candidate> cs = List.of(RoutingFixtures.CODEX, RoutingFixtures.CLAUDE, RoutingFixtures.GEMINI).stream()
                .map(c -> new Candidate(c.executionProfileId(), c.providerId(), c.modelId(), new Policies(t, h))).toList();
        return new RouteConfig(RoutingFixtures.PROFILE, 1, s.fallback(), cs);
    }

    /** Runs a script; returns the simulator and, per run, whether its last accepted failed turn was replay-safe, per decision. */
    public static Result run(List<Step> steps, Shape shape) {
        RoutingSimulator sim = new RoutingSimulator(new Router(RoutingSettings.DEFAULTS, JitterSource.hashing(),
                Map.of(RoutingFixtures.PROFILE, config(shape))::get), RoutingFixtures.WS, RoutingFixtures.T0);
        Map<String, Boolean> lastSafe = new HashMap<>();
        int seen = 0;
        for (Step s : steps) {
            String r = RUNS.get(s.run());
            Instant now = sim.now();
            switch (s.kind()) {
                case 0, 1 -> sim.request(r, RoutingFixtures.PROFILE);
                case 2, 3, 4 -> {
                    if (sim.sessionOf(r) != null) {
                        Instant ra = s.hint() == 1 ? now.plusSeconds(30) : s.hint() == 2 ? now.plusSeconds(300) : null;
                        Instant reset = s.hint() == 3 ? now.plusSeconds(1800) : s.hint() == 4 ? now.plus(Duration.ofDays(3)) : null;
                        RoutingDecision d = sim.fail(r, RoutingSimulator.classification(s.code(), s.confidence(), ra, reset),
                                s.launch(), s.effects() && !s.launch());
                        if (!d.isNoop()) {
                            lastSafe.put(r, !(s.effects() && !s.launch()));
                        }
                    }
                }
                case 5 -> {
                    if (sim.sessionOf(r) != null) {
                        sim.progress(r);
                    }
                }
                case 6 -> {
                    if (sim.sessionOf(r) != null) {
                        sim.complete(r);
                    }
                }
                case 7 -> {
                    Run run = sim.run(r);
                    if (run != null) {
                        sim.control(r, s.action(), s.fenceOk() ? run.attempt() : run.attempt() + 1);
                    }
                }
                case 8, 9 -> sim.advance(Duration.ofSeconds(s.seconds()));
                case 10 -> sim.ackFailed(r, "dispatch_failed");
                default -> {
                    if (s.seconds() % 3 == 0) {
                        sim.silence(r);
                    } else if (s.seconds() % 7 == 0) {
                        sim.finish(r);
                    }
                }
            }
            // re-drive check right after the step, against the failures accepted so far
            List<RoutingDecision> ds = sim.decisions();
            for (int i = seen; i < ds.size(); i++) {
                for (RouteCommand c : ds.get(i).commands()) {
                    if (c.action() == RouteAction.RETRY_SAME_ROUTE) {
                        assertThat(lastSafe.get(c.runId())).as("re-drive of %s after effects", c.commandId()).isTrue();
                    }
                }
            }
            seen = ds.size();
            assertParkedIsNeverRouted(sim);
            assertHealthIsOnTime(sim);
        }
        sim.advance(Duration.ofHours(30)); // let every timer fire
        assertParkedIsNeverRouted(sim);
        assertHealthIsOnTime(sim);
        return new Result(sim);
    }

    public record Result(RoutingSimulator sim) {
    }

    /**
     * The published health never outlives its instant: a {@code degraded} scope's {@code retry_at} is
     * still ahead (its expiry armed), a {@code short_retry} scope has a running cooldown.
     */
    private static void assertHealthIsOnTime(RoutingSimulator sim) {
        for (ProviderHealth h : sim.healthTable().values()) {
            assertThat(sim.state().health().get(h.key())).isEqualTo(h);
            if (h.state() == HealthState.DEGRADED) {
                assertThat(h.retryAt()).as("%s degraded past its retry_at", h.key()).isAfter(sim.now());
                assertThat(sim.timers()).contains(new TimerEntry(RoutingTimerKind.HEALTH_EXPIRY, h.retryAt(), h.key().healthKey()));
            }
            if (h.state() == HealthState.SHORT_RETRY) {
                assertThat(sim.state().cooldowns()).as("%s short_retry without a cooldown", h.key()).containsKey(h.key());
            }
        }
    }

    private static void assertParkedIsNeverRouted(RoutingSimulator sim) {
        Set<String> parked = sim.state().runs().values().stream().filter(Run::parked).map(Run::runId).collect(Collectors.toSet());
        assertThat(sim.parkedRuns().keySet()).isEqualTo(parked);
        for (Run r : sim.state().runs().values()) {
            if (r.parked()) {
                assertThat(r.status()).isIn(RunStatus.WAITING_FOR_PROVIDER_CAPACITY, RunStatus.BLOCKED_PROVIDER_ACTION_REQUIRED);
                assertThat(r.pendingCommandId()).isNull();
                if (r.resetWait()) { // a same-route reset wait: its command is due at its wake
                    assertThat(r.status()).isEqualTo(RunStatus.WAITING_FOR_PROVIDER_CAPACITY);
                    assertThat(r.reason()).isEqualTo(RunReason.WAIT_FOR_RESET.wire());
                    assertThat(r.retryAt()).isEqualTo(r.wakeAt());
                } else {
                    assertThat(r.retryAt()).isNull();
                }
                if (r.wakeAt() != null) {
                    assertThat(sim.timers()).contains(new TimerEntry(RoutingTimerKind.PARKED_WAKE, r.wakeAt(), r.runId()));
                }
                assertThat(sim.parkedRuns().get(r.runId()).wakeAt()).isEqualTo(r.wakeAt());
            } else {
                assertThat(r.status()).as("%s waits for capacity without a ParkedRun", r.runId())
                        .isNotEqualTo(RunStatus.WAITING_FOR_PROVIDER_CAPACITY);
            }
        }
    }

    @Test
    public void noDecisionEverReDrivesAPromptAfterEffects() {
        theory().forAll(scripts(), shapes()).checkAssert(RoutingProperties::noReDriveAfterEffects);
    }

    private static void noReDriveAfterEffects(List<Step> steps, Shape shape) {
        // run() asserts after every step that a retry_same_route follows only a replay-safe failure;
        // here: a re-drive never changes route (a cross-candidate move always starts fresh)
        Result res = run(steps, shape);
        Map<String, CandidateRef> previous = new HashMap<>();
        for (RouteCommand c : res.sim().commands()) {
            if (c.action() == RouteAction.RETRY_SAME_ROUTE) {
                assertThat(c.candidate()).isEqualTo(previous.get(c.runId()));
            }
            if (c.action() != RouteAction.DECLINE) {
                previous.put(c.runId(), c.candidate());
            }
        }
    }

    @Test
    public void noRunIsEverBothParkedAndRouted() {
        theory().forAll(scripts(), shapes()).checkAssert(RoutingProperties::neverParkedAndRouted);
    }

    private static void neverParkedAndRouted(List<Step> steps, Shape shape) {
        Result res = run(steps, shape);
        for (RoutingDecision d : res.sim().decisions()) {
            for (RouteCommand c : d.commands()) {
                Run after = d.state().run(c.runId());
                if (c.action() != RouteAction.DECLINE && after != null) {
                    assertThat(after.parked()).as("%s routed and parked", c.runId()).isFalse();
                }
            }
            for (ParkedRunChange p : d.parked()) {
                if (!p.release()) {
                    assertThat(d.commands()).noneMatch(c -> c.runId().equals(p.runId()) && c.action() != RouteAction.DECLINE
                            && d.state().run(p.runId()).parked());
                }
            }
        }
    }

    @Test
    public void everyWaitingForProviderCapacityParkHasAWakeAt() {
        theory().forAll(scripts(), shapes()).checkAssert(RoutingProperties::capacityParksHaveWakes);
    }

    private static void capacityParksHaveWakes(List<Step> steps, Shape shape) {
        Result res = run(steps, shape);
        for (RoutingDecision d : res.sim().decisions()) {
            for (ParkedRunChange p : d.parked()) {
                if (!p.release() && p.parked().status() == RunStatus.WAITING_FOR_PROVIDER_CAPACITY) {
                    assertThat(p.parked().wakeAt()).isNotNull();
                    assertThat(d.arm()).contains(new TimerEntry(RoutingTimerKind.PARKED_WAKE, p.parked().wakeAt(), p.runId()));
                }
            }
            for (RunState s : d.runStates()) {
                if (s.status() == RunStatus.WAITING_FOR_PROVIDER_CAPACITY) {
                    assertThat(s.wakeAt()).isNotNull();
                }
            }
        }
    }

    @Test
    public void healthRetryAtIsNeverInThePastWhenWritten() {
        theory().forAll(scripts(), shapes()).checkAssert(RoutingProperties::healthRetryAtInTheFuture);
    }

    private static void healthRetryAtInTheFuture(List<Step> steps, Shape shape) {
        Result res = run(steps, shape);
        List<RoutingDecision> ds = res.sim().decisions();
        List<Instant> times = res.sim().decisionTimes();
        for (int i = 0; i < ds.size(); i++) {
            for (ProviderHealth h : ds.get(i).health()) {
                if (h.retryAt() != null) {
                    assertThat(h.retryAt()).isAfter(times.get(i));
                }
                if (h.state() == HealthState.DEGRADED) {
                    assertThat(h.retryAt()).isNotNull();
                }
                if (h.state() == HealthState.USER_ACTION_REQUIRED) {
                    assertThat(h.retryAt()).isNull();
                }
            }
        }
    }
}
