package io.recourse.routing.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.avro.ProviderHealth;
import io.recourse.avro.RouteCommand;
import io.recourse.demo.RoutingDemoScenario;
import io.recourse.routing.JitterSource;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.Router;
import io.recourse.routing.RoutingSettings;
import io.recourse.routing.RoutingSimulator;
import io.recourse.routing.ScopeKey;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

/**
 * Provider health changes on time (DESIGN §7.3, §8): with no turn completing, the punctuator
 * writes a degraded scope {@code probe_allowed} at its {@code retry_at} and a short phase's scope
 * {@code probe_allowed} at its cooldown's expiry, so {@code recourse.office.provider-health} never
 * shows a {@code retry_at} in the past; the ladder step is kept, so the next failure climbs it.
 * The inputs come from a simulator script; the assertions read the topology's output topics.
 */
public class ProviderHealthOnTimeTest {

    private static final Instant T0 = Instant.parse("2026-11-30T09:00:00Z");
    private static final RoutingTopology.Options EXACT =
            new RoutingTopology.Options(RoutingSettings.DEFAULTS, JitterSource.none(), UnaryOperator.identity());
    private static final String OPENAI = ScopeKey.provider(RoutingDemoScenario.WORKSPACE, "openai").healthKey();

    private static RoutingSimulator simulator(RouteConfig config) {
        return new RoutingSimulator(new Router(RoutingSettings.DEFAULTS, JitterSource.none(),
                Map.of(config.dynamicProfileId(), config)::get), RoutingDemoScenario.WORKSPACE, T0);
    }

    /**
     * Runs the script's clock on to {@code until} and replays its inputs through the topology; the
     * wall clock advances to every timer instant on the way, so the punctuator fires each at its due.
     */
    private static RoutingDriver replay(RoutingSimulator sim, RouteConfig config, Instant until) {
        sim.advanceTo(until);
        RoutingDriver driver = new RoutingDriver(T0, EXACT);
        driver.routeConfig(config);
        driver.replay(sim.inputs());
        driver.advanceTo(until);
        return driver;
    }

    private static List<ProviderHealth> healthOf(RoutingDriver driver, String key) {
        return driver.health.readKeyValuesToList().stream().filter(kv -> kv.key.equals(key)).map(kv -> kv.value).toList();
    }

    @Test
    void aDegradedScopeIsWrittenProbeAllowedAtItsRetryAtAndTheNextFailureClimbsTheLadder() {
        RouteConfig config = RoutingDemoScenario.config();
        RoutingSimulator sim = simulator(config);
        sim.request("r1", RoutingDemoScenario.PROFILE);
        sim.fail("r1", Code.QUOTA_LIMITED); // long horizon: openai degraded, ladder step 1 (2 min), r1 moves on
        sim.advance(Duration.ofMinutes(3));
        sim.request("r2", RoutingDemoScenario.PROFILE); // openai is eligible again
        sim.fail("r2", Code.QUOTA_LIMITED); // step 2 (5 min)
        Instant end = sim.now().plus(Duration.ofMinutes(6));

        try (RoutingDriver driver = replay(sim, config, end)) {
            List<ProviderHealth> h = healthOf(driver, OPENAI);

            assertThat(h).extracting(ProviderHealth::getState)
                    .containsExactly("degraded", "probe_allowed", "degraded", "probe_allowed");
            assertThat(h).extracting(ProviderHealth::getBackoffStep).containsExactly(1, 1, 2, 2);
            assertThat(h.get(0).getRetryAt()).isEqualTo(T0.plus(Duration.ofMinutes(2)));
            assertThat(h.get(1).getUpdatedAt()).as("written at the retry_at, by the punctuator")
                    .isEqualTo(h.get(0).getRetryAt());
            assertThat(h.get(1).getRetryAt()).isNull();
            assertThat(h.get(1).getCode()).isEqualTo("quota_limited");
            assertThat(h.get(2).getRetryAt()).isEqualTo(T0.plus(Duration.ofMinutes(3 + 5)));
            assertThat(h.get(3).getUpdatedAt()).isEqualTo(h.get(2).getRetryAt());
            List<KeyValue<String, RouteCommand>> commands = driver.commands.readKeyValuesToList();
            assertThat(commands).filteredOn(kv -> kv.value.getRunId().equals("r2")).first()
                    .satisfies(kv -> assertThat(kv.value.getProviderId()).isEqualTo("openai"));
        }
    }

    @Test
    void aShortPhaseWhoseOwnerFinishedIsWrittenProbeAllowedAtTheCooldownExpiry() {
        RouteConfig config = RoutingDemoScenario.config();
        RoutingSimulator sim = simulator(config);
        sim.request("r1", RoutingDemoScenario.PROFILE);
        sim.fail("r1", Code.PROVIDER_OVERLOADED); // short_retry, r1 owns the cooldown
        Instant retryAt = sim.run("r1").retryAt();
        sim.finish("r1"); // the owner leaves; the cooldown runs to its own expiry
        Instant expiry = retryAt.plus(RoutingSettings.DEFAULTS.dispatchTimeout()).plus(RoutingSettings.DEFAULTS.cooldownGrace());

        try (RoutingDriver driver = replay(sim, config, expiry.plusSeconds(5))) {
            List<ProviderHealth> h = healthOf(driver, OPENAI);

            assertThat(h).extracting(ProviderHealth::getState).containsExactly("short_retry", "probe_allowed");
            assertThat(h.get(0).getRetryAt()).isEqualTo(retryAt);
            assertThat(h.get(1).getUpdatedAt()).isEqualTo(expiry);
            assertThat(h.get(1).getRetryAt()).isNull();
        }
    }

    @Test
    void aParkedRunWakesWhenItsScopeExpiresEarlierThanItsOwnWake() {
        RouteConfig config = RoutingDemoScenario.config().withFallbackEnabled(false);
        RoutingSimulator sim = simulator(config);
        sim.request("r1", RoutingDemoScenario.PROFILE);
        sim.request("r2", RoutingDemoScenario.PROFILE);
        sim.fail("r1", Code.QUOTA_LIMITED); // openai degraded for 2 min: r1 parks, wake in 2 min
        Instant reset = T0.plusSeconds(30);
        sim.fail("r2", RoutingSimulator.classification(Code.QUOTA_LIMITED, Confidence.HIGH, null, reset), false, false);
        assertThat(sim.run("r1").wakeAt()).isEqualTo(T0.plus(Duration.ofMinutes(2)));

        try (RoutingDriver driver = replay(sim, config, reset.plusSeconds(1))) {
            List<ProviderHealth> h = healthOf(driver, OPENAI);
            assertThat(h).extracting(ProviderHealth::getState).containsExactly("degraded", "degraded", "probe_allowed");
            assertThat(h.get(1).getRetryAt()).as("the validated reset replaces the ladder").isEqualTo(reset);

            List<RouteCommand> commands = driver.commands.readValuesToList();
            assertThat(commands).filteredOn(c -> c.getRunId().equals("r1")).extracting(RouteCommand::getIssuedAt)
                    .as("r1 relaunched at the scope's reset, not at its own later wake").containsExactly(T0, reset);
        }
    }
}
