package io.recourse.routing.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.generators.SourceDSL.integers;

import io.recourse.evidence.Outcome;
import io.recourse.evidence.TurnOutcome;
import io.recourse.routing.JitterSource;
import io.recourse.routing.ProviderHealth;
import io.recourse.routing.HealthState;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.Router;
import io.recourse.routing.RoutingDecision;
import io.recourse.routing.RoutingProperties;
import io.recourse.routing.RoutingSettings;
import io.recourse.routing.RoutingSimulator;
import io.recourse.routing.Run;
import io.recourse.routing.RunStatus;
import io.recourse.routing.WorkspaceState;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Reprocessing gives the same records (DESIGN §8), over the random timelines of
 * {@link RoutingProperties}: a crash at any prefix — the workspace rebuilt from the stores'
 * contents (runs and workspace values through their Avro form) — followed by a replay of the rest
 * writes the records of an uninterrupted run; and a failed turn reprocessed later (an aborted
 * transaction redone seconds after) decides the same instants, anchored to its record time.
 */
public class RoutingReplayProperties {

    private static Router router(RoutingProperties.Shape shape) {
        RouteConfig cfg = RoutingProperties.config(shape);
        return new Router(RoutingSettings.DEFAULTS, JitterSource.hashing(), Map.of(cfg.dynamicProfileId(), cfg)::get);
    }

    private static Function<String, RouteConfig> configs(RoutingProperties.Shape shape) {
        RouteConfig cfg = RoutingProperties.config(shape);
        return Map.of(cfg.dynamicProfileId(), cfg)::get;
    }

    /** The workspace as the processor loads it after a restart: every run and the workspace value through Avro. */
    private static WorkspaceState restored(WorkspaceState s) {
        Map<String, Run> runs = new LinkedHashMap<>();
        s.runs().values().forEach(r -> runs.put(r.runId(), RoutingStoreAvro.fromAvro(RoutingStoreAvro.toAvro(r))));
        return RoutingStoreAvro.fromAvro(s.workspaceId(), RoutingStoreAvro.toAvro(s), runs);
    }

    private static List<String> records(RoutingDecision d, WorkspaceState before, Function<String, RouteConfig> configs) {
        return RoutingRecords.of(d, before, configs, RoutingSettings.DEFAULTS.dispatchTimeout()).stream()
                .map(o -> o.kind() + " " + o.key() + " " + o.value()).toList();
    }

    @Test
    public void aCrashAtAnyPrefixThenAReplayOfTheRestWritesTheRecordsOfAnUninterruptedRun() {
        RoutingProperties.theory().withExamples(40).forAll(RoutingProperties.scripts(), RoutingProperties.shapes(), integers().between(0, 999))
                .checkAssert((steps, shape, cut) -> {
                    RoutingSimulator sim = RoutingProperties.run(steps, shape).sim();
                    List<RoutingSimulator.Step> in = sim.inputs();
                    List<RoutingDecision> ds = sim.decisions();
                    Router router = router(shape);
                    Function<String, RouteConfig> configs = configs(shape);
                    int k = cut % in.size();
                    WorkspaceState state = restored(k == 0 ? WorkspaceState.empty(sim.state().workspaceId()) : ds.get(k - 1).state());
                    for (int i = k; i < in.size(); i++) {
                        WorkspaceState before = i == 0 ? WorkspaceState.empty(state.workspaceId()) : ds.get(i - 1).state();
                        RoutingDecision replayed = router.decide(in.get(i).input(), state, in.get(i).at());
                        assertThat(records(replayed, state, configs)).as("records of input %d after a crash at %d", i, k)
                                .isEqualTo(records(ds.get(i), before, configs));
                        assertThat(replayed.arm()).as("armed at %d", i).isEqualTo(ds.get(i).arm());
                        assertThat(replayed.cancel()).as("cancelled at %d", i).isEqualTo(ds.get(i).cancel());
                        state = restored(replayed.state());
                    }
                });
    }

    @Test
    public void aFailedTurnReprocessedSecondsLaterDecidesTheSameInstants() {
        RoutingProperties.theory().withExamples(40).forAll(RoutingProperties.scripts(), RoutingProperties.shapes(), integers().between(1, 20))
                .checkAssert((steps, shape, lateSeconds) -> {
                    RoutingSimulator sim = RoutingProperties.run(steps, shape).sim();
                    Router router = router(shape);
                    List<RoutingSimulator.Step> in = sim.inputs();
                    List<RoutingDecision> ds = sim.decisions();
                    for (int i = 0; i < in.size(); i++) {
                        if (!(in.get(i).input() instanceof TurnOutcome o) || o.outcome() != Outcome.FAILED) {
                            continue;
                        }
                        WorkspaceState before = i == 0 ? WorkspaceState.empty(sim.state().workspaceId()) : ds.get(i - 1).state();
                        RoutingDecision first = ds.get(i);
                        RoutingDecision late = router.decide(o, before, in.get(i).at().plus(Duration.ofSeconds(lateSeconds)));
                        String runId = o.context().runId();
                        Run a = first.state().run(runId);
                        Run b = late.state().run(runId);
                        if (a != null && b != null && a.status() == b.status()
                                && (a.status() == RunStatus.SHORT_RETRY || a.resetWait())) {
                            assertThat(b.retryAt()).as("%s retry_at reprocessed %d s later", runId, lateSeconds)
                                    .isEqualTo(a.retryAt());
                            assertThat(b.wakeAt()).isEqualTo(a.wakeAt());
                        }
                        for (ProviderHealth h : first.health()) {
                            ProviderHealth l = late.state().health().get(h.key());
                            if (h.state() == HealthState.DEGRADED && l != null && l.state() == HealthState.DEGRADED
                                    && late.health().contains(l)) {
                                assertThat(l.retryAt()).as("%s retry_at reprocessed %d s later", h.key(), lateSeconds)
                                        .isEqualTo(h.retryAt());
                            }
                        }
                    }
                });
    }
}
