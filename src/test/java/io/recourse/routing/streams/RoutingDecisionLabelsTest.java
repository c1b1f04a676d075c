package io.recourse.routing.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.recourse.demo.RoutingDemoScenario;
import io.recourse.evidence.Outcome;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.routing.JitterSource;
import io.recourse.routing.RoutingSettings;
import io.recourse.routing.RunRequest;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import java.time.Instant;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The Office owner counts its decisions by the failed turn's agent type, provider and rule
 * (DESIGN §10): allow-listed values as they are, anything else {@code other}.
 */
public class RoutingDecisionLabelsTest {

    private static final Instant T0 = Instant.parse("2026-11-30T09:00:00Z");

    @Test
    public void an_office_decision_is_labelled_with_the_turn_s_agent_type_provider_and_rule() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RecourseMeters meters = new RecourseMeters(registry);
        meters.allowRuleIds(Set.of("anthropic.overloaded.529.v1"));
        RoutingTopology.Options options = new RoutingTopology.Options(RoutingSettings.DEFAULTS, JitterSource.none(),
                UnaryOperator.identity(), meters);
        String provider;
        try (RoutingDriver driver = new RoutingDriver(T0, options)) {
            driver.routeConfig(RoutingDemoScenario.config());
            provider = failOneRun(driver, "r1", "claude-acp", "anthropic.overloaded.529.v1");
        }
        try (RoutingDriver driver = new RoutingDriver(T0, options)) {
            driver.routeConfig(RoutingDemoScenario.config());
            failOneRun(driver, "r2", "ghp_planted0secret0value00000000", "rule.from.elsewhere.v1");
        }

        Counter known = registry.find(RecourseMeters.POLICY_DECISIONS).tags("context", "office",
                "agent_type", "claude-acp", "rule_id", "anthropic.overloaded.529.v1").counter();
        assertThat(known).isNotNull();
        assertThat(known.getId().getTag("provider")).isEqualTo(RecourseMeters.KNOWN_PROVIDERS.contains(provider)
                ? provider : "other");
        Counter hostile = registry.find(RecourseMeters.POLICY_DECISIONS).tags("context", "office",
                "agent_type", "other", "rule_id", "other").counter();
        assertThat(hostile).isNotNull();
        assertThat(hostile.getId().toString()).doesNotContain("planted0secret");
    }

    /** Launches run {@code runId} and fails its first turn; returns the route's provider id. */
    private static String failOneRun(RoutingDriver driver, String runId, String agentType, String ruleId) {
        driver.request(new RunRequest("q-" + runId, runId, RoutingDemoScenario.WORKSPACE, RoutingDemoScenario.PROFILE,
                "t-" + runId, T0));
        io.recourse.avro.RouteCommand launch = driver.commands.readValue();
        TurnContext t = RoutingEvents.turn(launch, 1);
        TurnContext turn = new TurnContext(t.sessionId(), t.promptGeneration(), t.promptOrigin(), t.retryOfGeneration(),
                t.commandId(), t.profileKind(), agentType, t.agentProfileId(), t.executionProfileId(), t.providerId(),
                t.modelId(), t.runId(), t.workspaceId(), t.taskId(), false);
        driver.event(RoutingEvents.started(turn, T0));
        Classification c = new Classification(Code.PROVIDER_OVERLOADED, Confidence.HIGH, ruleId, "provider-errors.v1",
                Scope.PROVIDER, null, null, false);
        driver.event(new TurnOutcome(turn, Outcome.FAILED, false, "end_turn", false, false, true, c, T0, T0));
        return t.providerId();
    }
}
