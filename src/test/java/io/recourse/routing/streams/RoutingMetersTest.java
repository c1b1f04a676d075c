package io.recourse.routing.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.recourse.demo.RoutingDemoScenario;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.routing.JitterSource;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RouteConfigJson;
import io.recourse.routing.Router;
import io.recourse.routing.RoutingSettings;
import io.recourse.routing.RoutingSimulator;
import io.recourse.routing.RunRequest;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The routing owner's metrics (DESIGN §10) through TopologyTestDriver on a {@link SimpleMeterRegistry}:
 * Office policy decisions on failed turns, the lag of its fired timers and the unknown fields of
 * accepted route configurations. Inputs are a
 * {@link RoutingSimulator} timeline replayed through the topology.
 */
public class RoutingMetersTest {

    private static final Instant T0 = Instant.parse("2026-11-30T09:00:00Z");

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RoutingTopology.Options options = new RoutingTopology.Options(RoutingSettings.DEFAULTS, JitterSource.none(),
            UnaryOperator.identity(), new RecourseMeters(registry));

    @Test
    public void unknown_route_config_fields_are_counted_on_the_topologys_meters() {
        try (RoutingDriver driver = new RoutingDriver(T0, options)) {
            Counter unknown = registry.find(RecourseMeters.ROUTE_CONFIG_UNKNOWN_FIELDS).counter();
            assertThat(unknown).as("registered when the topology is built").isNotNull();
            assertThat(unknown.count()).isZero();
            assertThat(RecourseMeters.ROUTE_CONFIG_UNKNOWN_FIELDS).isEqualTo("recourse.route.config.unknown.fields");

            String json = RouteConfigJson.write(RoutingDemoScenario.config())
                    .replaceFirst("\\{", "{\"owner\":\"ops\",\"team\":\"a\",");
            driver.routeConfigRaw(RoutingDemoScenario.PROFILE, json);

            assertThat(driver.dlq.isEmpty()).isTrue();
            assertThat(unknown.count()).isEqualTo(2.0);
            assertThat(unknown.getId().getTags()).isEmpty();
        }
    }

    @Test
    public void an_overloaded_office_turn_counts_a_short_retry_decision() {
        RouteConfig config = RoutingDemoScenario.config();
        RoutingSimulator sim = simulator(config);
        sim.request("r1", RoutingDemoScenario.PROFILE);
        sim.fail("r1", Code.PROVIDER_OVERLOADED);

        try (RoutingDriver driver = new RoutingDriver(T0, options)) {
            driver.routeConfig(config);
            driver.replay(sim.inputs());

            assertThat(decisions("provider_overloaded", "short_retry")).isEqualTo(1.0);
            assertThat(registry.find(RecourseMeters.POLICY_DECISIONS).counters()).hasSize(1);
        }
    }

    @Test
    public void a_quota_failure_on_the_only_route_with_fallback_off_counts_a_parked_decision() {
        RouteConfig config = RoutingDemoScenario.config().withFallbackEnabled(false);
        RoutingSimulator sim = simulator(config);
        sim.request("r1", RoutingDemoScenario.PROFILE);
        sim.fail("r1", RoutingSimulator.classification(Code.QUOTA_LIMITED, Confidence.HIGH, null, null), false, false);

        try (RoutingDriver driver = new RoutingDriver(T0, options)) {
            driver.routeConfig(config);
            driver.replay(sim.inputs());

            assertThat(decisions("quota_limited", "parked")).isEqualTo(1.0);
        }
    }

    @Test
    public void a_failed_office_turn_recorded_beyond_the_staleness_bound_counts_stale_evidence_and_a_declined_decision() {
        RouteConfig config = RoutingDemoScenario.config();
        try (RoutingDriver driver = new RoutingDriver(T0, options)) {
            driver.routeConfig(config);
            driver.request(new RunRequest("q1", "r1", RoutingDemoScenario.WORKSPACE, RoutingDemoScenario.PROFILE, "t1", T0));
            io.recourse.avro.RouteCommand launch = driver.commands.readValue();
            TurnContext turn = RoutingEvents.turn(launch, 1);
            Instant sixMinutesAgo = T0.minus(Duration.ofMinutes(6));

            driver.event(RoutingEvents.started(turn, sixMinutesAgo));
            driver.event(RoutingEvents.failed(turn, Code.PROVIDER_OVERLOADED, null, sixMinutesAgo));

            Counter stale = registry.find(RecourseMeters.STALE_EVIDENCE).tags("context", "office").counter();
            assertThat(stale).isNotNull();
            assertThat(stale.count()).isEqualTo(1.0);
            assertThat(decisions("provider_overloaded", "declined")).isEqualTo(1.0);
        }
    }

    @Test
    public void a_same_route_retry_fired_late_records_its_lag_behind_the_due_instant() {
        RouteConfig config = RoutingDemoScenario.config();
        RoutingSimulator sim = simulator(config);
        sim.request("r1", RoutingDemoScenario.PROFILE);
        sim.fail("r1", Code.PROVIDER_OVERLOADED);
        Instant due = sim.run("r1").retryAt();

        try (RoutingDriver driver = new RoutingDriver(T0, options)) {
            driver.routeConfig(config);
            driver.replay(sim.inputs());
            driver.advanceTo(due.plusSeconds(2)); // one punctuation, 2 s after the due instant

            Timer lag = registry.find(RecourseMeters.TIMER_LAG).tags("owner", "routing", "kind", "route_command_due").timer();
            assertThat(lag).isNotNull();
            assertThat(lag.count()).isEqualTo(1);
            assertThat(lag.max(TimeUnit.MILLISECONDS)).isEqualTo(2_000.0);
        }
    }

    private double decisions(String code, String result) {
        Counter c = registry.find(RecourseMeters.POLICY_DECISIONS).tags("context", "office", "code", code, "result", result)
                .counter();
        return c == null ? 0 : c.count();
    }

    private static RoutingSimulator simulator(RouteConfig config) {
        return new RoutingSimulator(new Router(RoutingSettings.DEFAULTS, JitterSource.none(),
                id -> id.equals(config.dynamicProfileId()) ? config : null), RoutingDemoScenario.WORKSPACE, T0);
    }
}
