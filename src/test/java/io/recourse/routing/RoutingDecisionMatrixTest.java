package io.recourse.routing;

import static io.recourse.routing.RoutingFixtures.CLAUDE;
import static io.recourse.routing.RoutingFixtures.CODEX;
import static io.recourse.routing.RoutingFixtures.PROFILE;
import static io.recourse.routing.RoutingFixtures.T0;
import static io.recourse.routing.RoutingFixtures.WS;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.ErrorClass;
import io.recourse.taxonomy.Handling;
import io.recourse.taxonomy.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@link Code} × phase × replay safety × hint × policy document shape against the Office
 * decision (DESIGN §7.2–7.3). The expectation is an independent statement of the rules with an
 * exhaustive switch over {@link Code}: a new code does not compile here until it has a decision.
 */
public class RoutingDecisionMatrixTest {

    public enum Hint { NONE, RETRY_AFTER_30S, RETRY_AFTER_300S, RESET_WITHIN_MAX_WAIT, RESET_BEYOND_MAX_WAIT }

    public enum Shape { DEFAULT, RETRIES_OFF, WAIT_ON, STOP_ON_EXHAUSTED, FALLBACK_DISABLED }

    public enum Kind { RETRY, WAIT_FOR_RESET, SKIP_TO_NEXT, PARK_TIMED, PARK_BLOCKED, DECLINE }

    /** What a decision amounts to: kind, the command action (retry/skip), delay, reason, health of the failed scope. */
    public record Summary(Kind kind, RouteAction action, Duration due, String reason, HealthState health) {
    }

    private static final long MAX_WAIT = 3600;

    /**
     * The path each code takes by the code rules of DESIGN §7.3, written out per handling (each code's
     * handling is DESIGN §5.1's, checked by {@code CodeTest}) — exhaustive on purpose.
     */
    private static String path(Code code, boolean preStart, Hint hint) {
        return switch (code.handling()) {
            case PROVIDER_TRANSIENT -> "short";
            case THROTTLE -> hint == Hint.RETRY_AFTER_30S ? "short" : "long_timed";
            case RENEWABLE_QUOTA -> "long_timed";
            case USER_ACTION -> "long_user";
            case TRANSPORT_LOST -> preStart ? "launch_transport" : "decline:transport_lost_post_start";
            case NOT_PROVIDER_FAILURE -> "decline:outside_provider_policy";
            case UNCLASSIFIED_PRE_START -> preStart ? "launch_unknown" : "decline:unclassified_post_start";
            case UNCLASSIFIED_POST_START -> preStart ? "decline:" + code.wire() : "decline:unclassified_post_start";
        };
    }

    private static Summary expected(Code code, boolean preStart, boolean replaySafe, Hint hint, Shape shape) {
        RouteAction same = replaySafe ? RouteAction.RETRY_SAME_ROUTE : RouteAction.FRESH_SESSION_CONTINUATION;
        Instant h = hintInstant(hint);
        String path = path(code, preStart, hint);
        if (path.startsWith("decline:")) {
            return new Summary(Kind.DECLINE, null, null, path.substring(8), null);
        }
        switch (path) {
            case "short" -> {
                if (shape != Shape.RETRIES_OFF) {
                    return new Summary(Kind.RETRY, same, officeDelay(hint), null, HealthState.SHORT_RETRY);
                }
                return exhausted(shape, h, same, HealthState.DEGRADED, false);
            }
            case "long_timed" -> {
                return exhausted(shape, h, same, HealthState.DEGRADED, shape == Shape.WAIT_ON);
            }
            case "long_user" -> {
                return exhausted(shape, null, same, HealthState.USER_ACTION_REQUIRED, false);
            }
            case "launch_transport" -> {
                return shape == Shape.RETRIES_OFF
                        ? new Summary(Kind.DECLINE, null, null, "launch_transport_lost", null)
                        : new Summary(Kind.RETRY, same, officeDelay(hint), null, null);
            }
            case "launch_unknown" -> {
                return shape == Shape.FALLBACK_DISABLED
                        ? new Summary(Kind.DECLINE, null, null, code.wire(), null)
                        : new Summary(Kind.SKIP_TO_NEXT, RouteAction.FRESH_SESSION_CONTINUATION, null, null, null);
            }
            default -> throw new AssertionError(path);
        }
    }

    /** Office delay of the first retry: max(5 s nominal, validated retry_after − now). */
    private static Duration officeDelay(Hint hint) {
        Instant ra = retryAfter(hint);
        Duration nominal = Duration.ofSeconds(5);
        return ra != null && Duration.between(T0, ra).compareTo(nominal) > 0 ? Duration.between(T0, ra) : nominal;
    }

    private static Summary exhausted(Shape shape, Instant hint, RouteAction same, HealthState health, boolean waitEnabled) {
        if (waitEnabled && hint != null && Duration.between(T0, hint).getSeconds() <= MAX_WAIT) {
            return new Summary(Kind.WAIT_FOR_RESET, same, Duration.between(T0, hint), null, HealthState.DEGRADED);
        }
        if (shape == Shape.STOP_ON_EXHAUSTED) {
            return new Summary(Kind.DECLINE, null, null, "policy_stop", health);
        }
        if (shape == Shape.FALLBACK_DISABLED) {
            return new Summary(health == HealthState.USER_ACTION_REQUIRED ? Kind.PARK_BLOCKED : Kind.PARK_TIMED, null, null,
                    null, health);
        }
        return new Summary(Kind.SKIP_TO_NEXT, RouteAction.FRESH_SESSION_CONTINUATION, null, null, health);
    }

    private static Instant retryAfter(Hint hint) {
        return switch (hint) {
            case RETRY_AFTER_30S -> T0.plusSeconds(30);
            case RETRY_AFTER_300S -> T0.plusSeconds(300);
            case NONE, RESET_WITHIN_MAX_WAIT, RESET_BEYOND_MAX_WAIT -> null;
        };
    }

    private static Instant resetAt(Hint hint) {
        return switch (hint) {
            case RESET_WITHIN_MAX_WAIT -> T0.plusSeconds(1800);
            case RESET_BEYOND_MAX_WAIT -> T0.plus(Duration.ofDays(3));
            case NONE, RETRY_AFTER_30S, RETRY_AFTER_300S -> null;
        };
    }

    private static Instant hintInstant(Hint hint) {
        return resetAt(hint) != null ? resetAt(hint) : retryAfter(hint);
    }

    private static RouteConfig config(Shape shape) {
        RouteConfig base = RouteConfig.defaultFor(PROFILE, List.of(CODEX, CLAUDE));
        return switch (shape) {
            case DEFAULT -> base;
            case FALLBACK_DISABLED -> base.withFallbackEnabled(false);
            case RETRIES_OFF -> map(base, p -> new Policies(p.transientPolicy().withRetry(RetryPolicy.OFF), p.hardPolicy()));
            case WAIT_ON -> map(base, p -> new Policies(p.transientPolicy().withWaitForReset(WaitForReset.upTo(MAX_WAIT)),
                    p.hardPolicy().withWaitForReset(WaitForReset.upTo(MAX_WAIT))));
            case STOP_ON_EXHAUSTED -> map(base, p -> new Policies(p.transientPolicy().withOnExhausted(OnExhausted.STOP),
                    p.hardPolicy().withOnExhausted(OnExhausted.STOP)));
        };
    }

    private static RouteConfig map(RouteConfig c, java.util.function.UnaryOperator<Policies> f) {
        return new RouteConfig(c.dynamicProfileId(), c.version(), c.fallbackEnabled(), c.candidates().stream()
                .map(k -> new Candidate(k.executionProfileId(), k.providerId(), k.modelId(), f.apply(k.policies())))
                .toList());
    }

    private static Summary actual(Code code, boolean preStart, boolean replaySafe, Hint hint, Shape shape) {
        RouteConfig cfg = config(shape);
        assertThat(RouteConfigValidator.validate(cfg)).isEmpty();
        RoutingSimulator sim = RoutingFixtures.simulator(cfg);
        sim.request("r1", PROFILE);
        Classification c = RoutingSimulator.classification(code, Confidence.HIGH, retryAfter(hint), resetAt(hint));
        RoutingDecision d = sim.fail("r1", c, preStart, !replaySafe);
        ScopeKey scope = c.scope() == Scope.MODEL
                ? ScopeKey.model(WS, CODEX.providerId(), CODEX.modelId())
                : ScopeKey.provider(WS, CODEX.providerId());
        ProviderHealth ph = d.state().health().get(scope);
        HealthState health = ph == null ? null : ph.state();
        Run run = d.state().run("r1");
        List<RouteCommand> cmds = d.commands();
        if (!cmds.isEmpty() && cmds.get(0).action() == RouteAction.DECLINE) {
            return new Summary(Kind.DECLINE, null, null, cmds.get(0).reason(), health);
        }
        if (!cmds.isEmpty()) {
            assertThat(cmds.get(0).candidate()).isEqualTo(CLAUDE);
            return new Summary(Kind.SKIP_TO_NEXT, cmds.get(0).action(), null, null, health);
        }
        if (run.parked() && !run.resetWait()) {
            return new Summary(run.status() == RunStatus.WAITING_FOR_PROVIDER_CAPACITY ? Kind.PARK_TIMED : Kind.PARK_BLOCKED,
                    null, null, null, health);
        }
        assertThat(run.retryAt()).as("a scheduled same-route command").isNotNull();
        Kind kind = run.status() == RunStatus.SHORT_RETRY ? Kind.RETRY : Kind.WAIT_FOR_RESET;
        Duration due = Duration.between(T0, run.retryAt());
        // written only when due: nothing before retry_at, the command at retry_at
        sim.advanceTo(run.retryAt().minusMillis(1));
        assertThat(sim.commands()).hasSize(1);
        sim.advanceTo(run.retryAt());
        RouteCommand cmd = sim.commands().get(1);
        assertThat(cmd.issuedAt()).isEqualTo(run.retryAt());
        assertThat(cmd.candidate()).isEqualTo(CODEX);
        return new Summary(kind, cmd.action(), due, null, health);
    }

    @TestFactory
    public Stream<DynamicTest> everyCodePhaseSafetyHintAndShapeHasTheDesignedDecision() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Code code : Code.values()) {
            for (boolean pre : new boolean[] {true, false}) {
                for (boolean safe : new boolean[] {true, false}) {
                    for (Hint hint : Hint.values()) {
                        for (Shape shape : Shape.values()) {
                            String name = code.wire() + " " + (pre ? "pre_start" : "post_start") + " "
                                    + (safe ? "replay_safe" : "after_effects") + " " + hint + " " + shape;
                            tests.add(DynamicTest.dynamicTest(name, () -> {
                                Summary want = expected(code, pre, safe, hint, shape);
                                Summary got = actual(code, pre, safe, hint, shape);
                                assertThat(got).as(name).isEqualTo(want);
                            }));
                        }
                    }
                }
            }
        }
        return tests.stream();
    }

    @Test
    public void everyCodeOfTheTaxonomyHasAPathInTheEvaluator() {
        // DESIGN §7.3, written out per handling: {pre-start path, post-start path} (rate_limited without a short hint)
        Map<Handling, RoutePath[]> want = new java.util.EnumMap<>(Handling.class);
        want.put(Handling.PROVIDER_TRANSIENT, new RoutePath[] {RoutePath.SHORT, RoutePath.SHORT});
        for (Handling h : List.of(Handling.THROTTLE, Handling.RENEWABLE_QUOTA, Handling.USER_ACTION)) {
            want.put(h, new RoutePath[] {RoutePath.LONG_HORIZON, RoutePath.LONG_HORIZON});
        }
        want.put(Handling.TRANSPORT_LOST, new RoutePath[] {RoutePath.LAUNCH_TRANSPORT, RoutePath.DECLINE});
        want.put(Handling.UNCLASSIFIED_PRE_START, new RoutePath[] {RoutePath.LAUNCH_UNKNOWN, RoutePath.DECLINE});
        for (Handling h : List.of(Handling.NOT_PROVIDER_FAILURE, Handling.UNCLASSIFIED_POST_START)) {
            want.put(h, new RoutePath[] {RoutePath.DECLINE, RoutePath.DECLINE});
        }
        assertThat(want.keySet()).as("every handling has an expected path").containsExactlyInAnyOrder(Handling.values());
        RoutingPolicy policy = RoutingFixtures.router(RoutingFixtures.threeCandidates()).policy();
        for (Code code : Code.values()) {
            assertThat(policy.pathOf(code, true, RoutingFixtures.high(code), T0)).as(code.wire() + " pre-start")
                    .isEqualTo(want.get(code.handling())[0]);
            assertThat(policy.pathOf(code, false, RoutingFixtures.high(code), T0)).as(code.wire() + " post-start")
                    .isEqualTo(want.get(code.handling())[1]);
        }
    }

    @Test
    public void userActionCodesAreExactlyTheHardCodesWithoutARenewal() {
        for (Code c : Code.values()) {
            boolean want = c.errorClass() == ErrorClass.HARD && c.handling() != Handling.RENEWABLE_QUOTA;
            assertThat(RoutingPolicy.userActionRequired(c)).as(c.wire()).isEqualTo(want);
        }
    }
}
