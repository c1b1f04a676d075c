package io.recourse.routing;

import static io.recourse.routing.RoutingFixtures.PROFILE;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.taxonomy.Code;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulator is a deterministic driver: the same script gives the same timeline. */
public class RoutingSimulatorTest {

    private static List<String> script() {
        RoutingSimulator sim = RoutingFixtures.simulator(RoutingFixtures.threeCandidates());
        sim.request("r1", PROFILE);
        sim.request("r2", PROFILE);
        sim.fail("r1", Code.MODEL_CAPACITY);
        sim.fail("r2", Code.MODEL_CAPACITY);
        sim.advance(Duration.ofSeconds(5));
        sim.progress("r1");
        sim.fail("r2", Code.QUOTA_LIMITED);
        sim.advance(Duration.ofMinutes(10));
        return sim.timeline();
    }

    @Test
    public void theSameScriptGivesTheSameTimeline() {
        assertThat(script()).isEqualTo(script()).isNotEmpty();
    }

    @Test
    public void dueTimersFireAtTheirInstantInOrder() {
        RoutingSimulator sim = RoutingFixtures.simulator(RoutingFixtures.threeCandidates());
        sim.request("r1", PROFILE);
        sim.fail("r1", Code.NETWORK_UNAVAILABLE);
        sim.advance(Duration.ofMinutes(1));
        assertThat(sim.timeline()).anyMatch(l -> l.startsWith("+00:00:05.000 timer route_command_due r1"));
        assertThat(sim.commands().get(1).issuedAt()).isEqualTo(RoutingFixtures.T0.plusSeconds(5));
    }

    @Test
    public void printShowsTheTimelineTheHealthTableAndTheParkedRuns() {
        RoutingSimulator sim = RoutingFixtures.simulator(RouteConfig.defaultFor(PROFILE, List.of(RoutingFixtures.CODEX)));
        sim.request("r1", PROFILE);
        sim.fail("r1", Code.QUOTA_LIMITED);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        sim.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("-- provider health", "ws-1/openai/provider/openai degraded step=1 retry_at=+00:02:00.000",
                "-- parked runs", "r1 waiting_for_provider_capacity wake_at=+00:02:00.000");
    }
}
