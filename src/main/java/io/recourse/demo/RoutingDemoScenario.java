package io.recourse.demo;

import io.recourse.routing.CandidateRef;
import io.recourse.routing.JitterSource;
import io.recourse.routing.RetryPolicy;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.Router;
import io.recourse.routing.RoutingPolicy;
import io.recourse.routing.RoutingSettings;
import io.recourse.routing.RoutingSimulator;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The routing demo's scenario as a script over {@link RoutingSimulator}: a dynamic
 * profile of three candidates and {@code runs} concurrent runs on one workspace. The first
 * candidate hits model capacity, which clears after two short retries (the other runs wait, then
 * all proceed); a second capacity burst does not clear, so the runs fall through to the second
 * candidate, which is quota-limited with a reset 60 s away; the third is auth-expired; so the runs
 * park {@code waiting_for_provider_capacity} and wake when the reset passes, onto the second
 * candidate. With {@link JitterSource#none()} the timeline is exact.
 */
public final class RoutingDemoScenario {

    /** The demo's dynamic profile id. */
    public static final String PROFILE = "dyn-demo";
    /** The demo's workspace. */
    public static final String WORKSPACE = "ws-demo";
    /** The three candidates, in route order. */
    public static final List<CandidateRef> CANDIDATES = List.of(
            new CandidateRef("codex-gpt5", "openai", "gpt-5"),
            new CandidateRef("claude-sonnet", "anthropic", "claude-sonnet-4"),
            new CandidateRef("gemini-pro", "google", "gemini-2.5-pro"));

    private RoutingDemoScenario() {
    }

    /** The demo's route configuration: the default document over {@link #CANDIDATES}. */
    public static RouteConfig config() {
        return RouteConfig.defaultFor(PROFILE, CANDIDATES);
    }

    /**
     * The delays of the owner run's two short retries in burst 1, as the demo's configuration
     * ({@link #config()}: the first candidate's {@code transient} retry policy, {@code model_capacity}
     * being transient) and the routing policy give them without jitter: what the demo's check expects.
     */
    public static List<Duration> burstOneShortRetryDelays() {
        RetryPolicy retry = shortRetryPolicy();
        RoutingPolicy policy = new RoutingPolicy(RoutingSettings.DEFAULTS, JitterSource.none());
        Instant now = Instant.EPOCH;
        return IntStream.rangeClosed(1, 2)
                .mapToObj(ordinal -> policy.delay(retry, runIds(1).get(0), 1, ordinal, null, now)).toList();
    }

    /** The first candidate's retry policy for the scenario's failures ({@code model_capacity}, transient). */
    static RetryPolicy shortRetryPolicy() {
        return config().candidates().get(0).policies().of(Code.MODEL_CAPACITY.errorClass()).retry();
    }

    /** A simulator at {@code start} on the demo's configuration with the given jitter. */
    public static RoutingSimulator simulator(Instant start, JitterSource jitter) {
        RouteConfig cfg = config();
        return new RoutingSimulator(new Router(RoutingSettings.DEFAULTS, jitter, Map.of(PROFILE, cfg)::get),
                WORKSPACE, start);
    }

    /** The run ids of a demo with {@code runs} runs: {@code run-01}…. */
    public static List<String> runIds(int runs) {
        return IntStream.rangeClosed(1, runs).mapToObj(i -> String.format("run-%02d", i)).toList();
    }

    /**
     * Plays the scenario on {@code sim} and returns the instant of the quota reset the parked runs
     * wake at; the clock ends 10 s after it.
     */
    public static Instant play(RoutingSimulator sim, int runs) {
        List<String> ids = runIds(runs);
        String owner = ids.get(0);
        ids.forEach(id -> sim.request(id, PROFILE));
        // burst 1: capacity on the first candidate clears after two short retries
        ids.forEach(id -> sim.fail(id, Code.MODEL_CAPACITY));
        sim.advanceTo(sim.run(owner).retryAt());
        sim.fail(owner, Code.MODEL_CAPACITY);
        sim.advanceTo(sim.run(owner).retryAt());
        sim.progress(owner); // the owner's second retry works: every waiter proceeds
        sim.advance(Duration.ofSeconds(30));
        ids.forEach(sim::complete);
        // burst 2: capacity does not clear; the runs fall through
        sim.advance(Duration.ofSeconds(30));
        ids.forEach(id -> sim.fail(id, Code.MODEL_CAPACITY));
        for (int i = 0; i < shortRetryPolicy().budget(); i++) {
            sim.advanceTo(sim.run(owner).retryAt());
            sim.fail(owner, Code.MODEL_CAPACITY);
        }
        // now on the second candidate: quota with a reset 60 s away, then the third: auth expired
        Instant reset = sim.now().plusSeconds(60);
        ids.forEach(id -> sim.fail(id, RoutingSimulator.classification(Code.QUOTA_LIMITED, Confidence.HIGH, null, reset),
                false, false));
        ids.forEach(id -> sim.fail(id, Code.AUTH_REQUIRED));
        sim.advanceTo(reset.plusSeconds(10));
        return reset;
    }
}
