package io.recourse.routing;

import static io.recourse.routing.RoutingFixtures.CLAUDE;
import static io.recourse.routing.RoutingFixtures.CODEX;
import static io.recourse.routing.RoutingFixtures.PROFILE;
import static io.recourse.routing.RoutingFixtures.T0;
import static io.recourse.routing.RoutingFixtures.WS;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.taxonomy.Code;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** 50 runs failing on one scope at once (DESIGN §7.3 "cooldown without stampede"). */
public class CooldownStampedeTest {

    private static final int RUNS = 50;
    private static final List<String> IDS = IntStream.rangeClosed(1, RUNS).mapToObj(i -> String.format("run-%02d", i)).toList();

    private static RoutingSimulator fiftyRunsFailOnModelCapacity(JitterSource jitter) {
        RouteConfig cfg = RoutingFixtures.threeCandidates();
        RoutingSimulator sim = new RoutingSimulator(
                new Router(RoutingSettings.DEFAULTS, jitter, Map.of(PROFILE, cfg)::get), WS, T0);
        IDS.forEach(id -> sim.request(id, PROFILE));
        IDS.forEach(id -> sim.fail(id, Code.MODEL_CAPACITY));
        return sim;
    }

    private static List<RouteCommand> retries(RoutingSimulator sim) {
        return sim.commands().stream().filter(c -> c.action() == RouteAction.RETRY_SAME_ROUTE).toList();
    }

    @Test
    public void exactlyOneRunRetriesPerOrdinalWhileTheOtherFortyNineWait() {
        RoutingSimulator sim = fiftyRunsFailOnModelCapacity(JitterSource.hashing());
        String owner = IDS.get(0);
        for (int ordinal = 1; ordinal <= 3; ordinal++) {
            assertThat(sim.run(owner).retryOrdinal()).isEqualTo(ordinal);
            assertThat(IDS.subList(1, RUNS)).allMatch(id -> sim.run(id).status() == RunStatus.WAITING_FOR_COOLDOWN);
            sim.advanceTo(sim.run(owner).retryAt());
            assertThat(retries(sim)).hasSize(ordinal).allMatch(c -> c.runId().equals(owner));
            if (ordinal < 3) {
                sim.fail(owner, Code.MODEL_CAPACITY);
            }
        }
    }

    @Test
    public void noRunSwitchesProviderDuringTheShortPhase() {
        RoutingSimulator sim = fiftyRunsFailOnModelCapacity(JitterSource.hashing());
        String owner = IDS.get(0);
        for (int i = 0; i < 3; i++) {
            sim.advanceTo(sim.run(owner).retryAt());
            sim.fail(owner, Code.MODEL_CAPACITY);
        }
        // the owner exhausted only now: until this instant every command was on the first candidate
        Instant exhaustedAt = sim.now();
        assertThat(sim.commands()).filteredOn(c -> c.issuedAt().isBefore(exhaustedAt))
                .allMatch(c -> c.candidate().equals(CODEX));
        Map<CandidateRef, Long> after = sim.commands().stream().filter(c -> !c.issuedAt().isBefore(exhaustedAt))
                .collect(Collectors.groupingBy(RouteCommand::candidate, Collectors.counting()));
        assertThat(after).containsEntry(CLAUDE, (long) RUNS);
    }

    @Test
    public void waitersAllProceedOnTheSameRouteWhenTheOwnersRetryShowsProgress() {
        RoutingSimulator sim = fiftyRunsFailOnModelCapacity(JitterSource.hashing());
        String owner = IDS.get(0);
        sim.advanceTo(sim.run(owner).retryAt());
        sim.progress(owner);
        assertThat(IDS).allMatch(id -> sim.run(id).status() == RunStatus.RUNNING);
        assertThat(sim.commands()).allMatch(c -> c.candidate().equals(CODEX));
        assertThat(retries(sim)).hasSize(RUNS); // the owner's one retry + one re-drive per waiter
    }

    @Test
    public void nobodyIsStrandedWhenTheOwnersDispatchIsNeverConfirmed() {
        RoutingSimulator sim = fiftyRunsFailOnModelCapacity(JitterSource.hashing());
        String owner = IDS.get(0);
        sim.silence(owner);
        Instant retryAt = sim.run(owner).retryAt();
        sim.advanceTo(retryAt);
        sim.advance(Duration.ofSeconds(30)); // dispatch timeout: the owner is declined, never resent
        assertThat(sim.run(owner).status()).isEqualTo(RunStatus.DECLINED);
        assertThat(sim.run(owner).reason()).isEqualTo("dispatch_unconfirmed");
        sim.advanceTo(retryAt.plus(Duration.ofSeconds(90)));
        assertThat(IDS.subList(1, RUNS)).allMatch(id -> sim.run(id).status() == RunStatus.RUNNING);
        assertThat(sim.commands().stream().filter(c -> c.runId().equals(owner)).map(RouteCommand::action).toList())
                .containsExactly(RouteAction.LAUNCH, RouteAction.RETRY_SAME_ROUTE, RouteAction.DECLINE);
        assertThat(sim.state().cooldowns()).isEmpty();
    }
}
