package io.recourse.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.routing.CandidateRef;
import io.recourse.routing.HealthState;
import io.recourse.routing.JitterSource;
import io.recourse.routing.ParkedRun;
import io.recourse.routing.ParkedRunChange;
import io.recourse.routing.RouteAction;
import io.recourse.routing.RouteCommand;
import io.recourse.routing.RoutingSimulator;
import io.recourse.routing.RunStatus;
import io.recourse.routing.ScopeKey;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The routing demo's scenario through the decision functions. */
public class RoutingDemoScenarioTest {

    private static final Instant START = Instant.parse("2026-11-30T09:00:00Z");
    private static final List<CandidateRef> C = RoutingDemoScenario.CANDIDATES;

    private static List<RouteCommand> commands(RoutingSimulator sim, RouteAction action, CandidateRef on) {
        return sim.commands().stream().filter(c -> c.action() == action && on.equals(c.candidate())).toList();
    }

    @Test
    public void twentyRunsRideOutTheFirstBurstFallThroughOnTheSecondParkAndWakeAtTheQuotaReset() {
        RoutingSimulator sim = RoutingDemoScenario.simulator(START, JitterSource.none());
        Instant reset = RoutingDemoScenario.play(sim, 20);
        List<String> ids = RoutingDemoScenario.runIds(20);
        // burst 1: two short retries by one owner, then all 19 waiters re-drive; burst 2: the scenario
        // configuration's whole short budget (three with the default document)
        assertThat(commands(sim, RouteAction.RETRY_SAME_ROUTE, C.get(0)))
                .filteredOn(c -> c.runId().equals(ids.get(0))).hasSize(2 + RoutingDemoScenario.shortRetryPolicy().budget());
        assertThat(commands(sim, RouteAction.RETRY_SAME_ROUTE, C.get(0)))
                .filteredOn(c -> !c.runId().equals(ids.get(0))).hasSize(19);
        // fall-through: every run to the second candidate, then the third
        assertThat(commands(sim, RouteAction.FRESH_SESSION_CONTINUATION, C.get(2))).hasSize(20);
        // parked until the reset, woken exactly at it onto the second candidate
        List<RouteCommand> wakes = sim.commands().stream().filter(c -> c.issuedAt().equals(reset)).toList();
        assertThat(wakes).hasSize(20).allMatch(c -> c.candidate().equals(C.get(1)) && "wake".equals(c.reason()));
        assertThat(ids).allMatch(id -> sim.run(id).status() == RunStatus.RUNNING);
        assertThat(sim.parkedRuns()).isEmpty();
        assertThat(sim.healthTable().get(ScopeKey.provider(RoutingDemoScenario.WORKSPACE, "google").healthKey()).state())
                .isEqualTo(HealthState.USER_ACTION_REQUIRED);
        List<ParkedRun> parks = sim.decisions().stream().flatMap(d -> d.parked().stream())
                .filter(p -> !p.release()).map(ParkedRunChange::parked).toList();
        assertThat(parks).hasSize(20).allMatch(p -> p.status() == RunStatus.WAITING_FOR_PROVIDER_CAPACITY
                && reset.equals(p.wakeAt()));
    }

    @Test
    public void theScenarioTimelineIsExactWithoutJitter() {
        RoutingSimulator a = RoutingDemoScenario.simulator(START, JitterSource.none());
        RoutingSimulator b = RoutingDemoScenario.simulator(START, JitterSource.none());
        RoutingDemoScenario.play(a, 20);
        RoutingDemoScenario.play(b, 20);
        assertThat(a.timeline()).isEqualTo(b.timeline());
    }

    @Test
    public void theDemosExpectedShortRetryDelaysAreTheOnesItsConfigurationSchedules() {
        RoutingSimulator sim = RoutingDemoScenario.simulator(START, JitterSource.none());
        String owner = RoutingDemoScenario.runIds(1).get(0);
        sim.request(owner, RoutingDemoScenario.PROFILE);
        List<java.time.Duration> scheduled = new java.util.ArrayList<>();
        for (int i = 0; i < 2; i++) {
            sim.fail(owner, io.recourse.taxonomy.Code.MODEL_CAPACITY);
            scheduled.add(java.time.Duration.between(sim.now(), sim.run(owner).retryAt()));
            sim.advanceTo(sim.run(owner).retryAt());
        }

        assertThat(RoutingDemoScenario.burstOneShortRetryDelays()).hasSize(2).isEqualTo(scheduled);
    }
}
