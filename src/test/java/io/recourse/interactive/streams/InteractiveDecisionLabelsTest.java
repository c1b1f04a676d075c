package io.recourse.interactive.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.evidence.streams.SessionEvents;
import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.JitterSource;
import io.recourse.kit.AvroSerde;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kanban owner counts its decisions by the failed turn's agent type, provider and rule
 * (DESIGN §10): allow-listed values as they are, anything else {@code other}.
 */
public class InteractiveDecisionLabelsTest {

    private static final Instant T0 = Instant.parse("2026-11-30T08:00:00Z");
    @TempDir
    public Path stateDir;

    @Test
    public void a_kanban_decision_is_labelled_with_the_turn_s_agent_type_provider_and_rule() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RecourseMeters meters = new RecourseMeters(registry);
        meters.allowRuleIds(Set.of("anthropic.overloaded.529.v1"));
        RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.APPLICATION_ID, "recourse-decision-labels"));
        Properties props = new Properties();
        props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "recourse-decision-labels",
                StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092", StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()));
        InteractiveRecoveryPolicy policy = new InteractiveRecoveryPolicy(InteractiveTopology.interactiveConfig(config),
                JitterSource.fixed(0.5));
        try (TopologyTestDriver driver = new TopologyTestDriver(InteractiveTestTopology.build(config, policy, null, meters),
                props, T0)) {
            TestInputTopic<String, io.recourse.avro.SessionEvent> events = driver.createInputTopic(
                    InteractiveTestTopology.SESSION_EVENTS, new StringSerializer(), AvroSerde.of(io.recourse.avro.SessionEvent.class));
            fail(events, "s1", "claude-acp", "anthropic", "anthropic.overloaded.529.v1");
            fail(events, "s2", "sk-proj-planted0secret0value0000", "evil-provider", "rule.from.elsewhere.v1");

            assertThat(count(registry, "claude-acp", "anthropic", "anthropic.overloaded.529.v1")).isEqualTo(1.0);
            assertThat(count(registry, "other", "other", "other")).isEqualTo(1.0);
            assertThat(registry.find(RecourseMeters.POLICY_DECISIONS).counters()).hasSize(2);
        }
    }

    private static void fail(TestInputTopic<String, io.recourse.avro.SessionEvent> events, String session, String agentType,
                             String provider, String ruleId) {
        TurnContext ctx = new TurnContext(session, 1, PromptOrigin.USER, null, null, ProfileKind.CONCRETE, agentType,
                "agent-profile-7", "exec-profile-3", provider, "claude-sonnet-4", null, null, "task-1", false);
        Classification c = new Classification(Code.PROVIDER_OVERLOADED, Confidence.HIGH, ruleId, "provider-errors.v1",
                Scope.PROVIDER, null, null, false);
        events.pipeInput(session, AvroMapping.toAvro(SessionEvents.started(ctx, T0)), T0);
        events.pipeInput(session, AvroMapping.toAvro(SessionEvents.failed(ctx, c, true, T0)), T0);
    }

    private static double count(SimpleMeterRegistry registry, String agentType, String provider, String ruleId) {
        Counter c = registry.find(RecourseMeters.POLICY_DECISIONS).tags("context", "kanban", "code", "provider_overloaded",
                "result", "auto_retry", "agent_type", agentType, "provider", provider, "rule_id", ruleId).counter();
        return c == null ? 0 : c.count();
    }
}
