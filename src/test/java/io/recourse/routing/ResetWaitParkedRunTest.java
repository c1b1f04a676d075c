package io.recourse.routing;

import static io.recourse.routing.RoutingFixtures.CLAUDE;
import static io.recourse.routing.RoutingFixtures.CODEX;
import static io.recourse.routing.RoutingFixtures.PROFILE;
import static io.recourse.routing.RoutingFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A run waiting for a validated reset is parked like any other: a ParkedRun while it waits, a tombstone on release. */
public class ResetWaitParkedRunTest {

    private static final Instant RESET = T0.plusSeconds(1800);

    private static RoutingSimulator waiting() {
        RouteConfig base = RouteConfig.defaultFor(PROFILE, List.of(CODEX, CLAUDE));
        RouteConfig cfg = new RouteConfig(base.dynamicProfileId(), base.version(), base.fallbackEnabled(),
                base.candidates().stream().map(k -> new Candidate(k.executionProfileId(), k.providerId(), k.modelId(),
                        new Policies(k.policies().transientPolicy().withWaitForReset(WaitForReset.upTo(3600)),
                                k.policies().hardPolicy().withWaitForReset(WaitForReset.upTo(3600))))).toList());
        RoutingSimulator sim = RoutingFixtures.simulator(cfg);
        sim.request("r1", PROFILE);
        RoutingDecision d = sim.fail("r1", RoutingSimulator.classification(Code.QUOTA_LIMITED, Confidence.HIGH, null, RESET),
                false, false);
        assertThat(d.state().run("r1").status()).isEqualTo(RunStatus.WAITING_FOR_PROVIDER_CAPACITY);
        Run r = d.state().run("r1");
        assertThat(r.parked()).as("a same-route reset wait is a park").isTrue();
        assertThat(r.resetWait()).isTrue();
        assertThat(r.retryAt()).isEqualTo(RESET);
        assertThat(r.wakeAt()).isEqualTo(RESET);
        assertThat(d.arm()).contains(new TimerEntry(RoutingTimerKind.PARKED_WAKE, RESET, "r1"))
                .noneMatch(t -> t.kind() == RoutingTimerKind.ROUTE_COMMAND_DUE);
        assertThat(d.parked()).singleElement().satisfies(p -> {
            assertThat(p.release()).isFalse();
            assertThat(p.parked().status()).isEqualTo(RunStatus.WAITING_FOR_PROVIDER_CAPACITY);
            assertThat(p.parked().wakeAt()).isEqualTo(RESET);
            assertThat(p.parked().reason()).isEqualTo(RunReason.WAIT_FOR_RESET.wire());
            assertThat(p.parked().reasons()).containsKey(CODEX.executionProfileId());
        });
        return sim;
    }

    @Test
    public void aResetWaitEmitsAParkedRunAndItsCommandAtTheResetTombstonesIt() {
        RoutingSimulator sim = waiting();
        assertThat(sim.parkedRuns()).containsKey("r1");

        sim.advanceTo(RESET);

        RouteCommand last = sim.commands().get(sim.commands().size() - 1);
        assertThat(last.candidate()).as("the same route, not a new cycle").isEqualTo(CODEX);
        assertThat(last.issuedAt()).isEqualTo(RESET);
        assertThat(last.reason()).isEqualTo(RunReason.RETRY_DUE.wire());
        assertThat(sim.parkedRuns()).doesNotContainKey("r1");
        assertThat(sim.decisions().stream().flatMap(d -> d.parked().stream()).map(ParkedRunChange::release))
                .containsExactly(false, true);
    }

    @Test
    public void retryNowOnAResetWaitIssuesTheSameRouteNowAndTombstonesItsParkedRun() {
        RoutingSimulator sim = waiting();

        RoutingDecision d = sim.control("r1", RunControlAction.RETRY_NOW);

        assertThat(d.commands()).singleElement().satisfies(c -> {
            assertThat(c.candidate()).isEqualTo(CODEX);
            assertThat(c.reason()).isEqualTo(RunReason.RETRY_NOW.wire());
        });
        assertThat(d.parked()).singleElement().satisfies(p -> assertThat(p.release()).isTrue());
        assertThat(d.cancel()).contains(new TimerEntry(RoutingTimerKind.PARKED_WAKE, RESET, "r1"));
    }

    @Test
    public void cancellingAResetWaitTombstonesItsParkedRun() {
        RoutingSimulator sim = waiting();

        RoutingDecision d = sim.control("r1", RunControlAction.CANCEL_WAIT);

        assertThat(d.parked()).singleElement().satisfies(p -> assertThat(p.release()).isTrue());
        assertThat(sim.parkedRuns()).doesNotContainKey("r1");
    }
}
