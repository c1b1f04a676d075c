package io.recourse.evidence.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.recourse.evidence.TurnContext;
import io.recourse.taxonomy.Code;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code recourse_policy_decisions_total} by agent type, provider and classifier rule (DESIGN §10):
 * every label value comes from a closed list — the built-in and configured adapters and providers,
 * the loaded catalogue's rule ids and the evidence fallbacks — never from whoever comes first;
 * anything else reads {@code other}, absent {@code none}.
 */
public class PolicyDecisionLabelsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private static TurnContext turn(String agentType, String provider) {
        return new TurnContext("s1", 1, null, null, null, null, agentType, null, null, provider, "m", null, null, null,
                false);
    }

    private List<Map<String, String>> decisions() {
        return registry.find(RecourseMeters.POLICY_DECISIONS).counters().stream()
                .map(c -> c.getId().getTags().stream().collect(Collectors.toMap(Tag::getKey, Tag::getValue)))
                .toList();
    }

    @Test
    public void a_known_adapter_provider_and_catalogue_rule_are_the_label_values() {
        RecourseMeters meters = new RecourseMeters(new EvidenceCounters(registry));
        meters.allowRuleIds(Set.of("anthropic.overloaded.529.v1", "fallback.post_start.v1"));

        meters.policyDecision(RecourseMeters.Context.KANBAN, Code.PROVIDER_OVERLOADED, "auto_retry",
                turn("claude-acp", "anthropic"), "anthropic.overloaded.529.v1");

        assertThat(decisions()).containsExactly(Map.of("context", "kanban", "code", "provider_overloaded",
                "result", "auto_retry", "agent_type", "claude-acp", "provider", "anthropic",
                "rule_id", "anthropic.overloaded.529.v1"));
    }

    @Test
    public void unknown_and_hostile_values_read_other_however_many_come_first() {
        RecourseMeters meters = new RecourseMeters(new EvidenceCounters(registry));
        meters.allowRuleIds(Set.of("anthropic.overloaded.529.v1"));
        for (int i = 0; i < 50; i++) {
            meters.policyDecision(RecourseMeters.Context.OFFICE, Code.PROVIDER_OVERLOADED, "short_retry",
                    turn("fake-adapter-" + i, "fake-provider-" + i), "made.up.rule." + i + ".v1");
        }
        meters.policyDecision(RecourseMeters.Context.OFFICE, Code.PROVIDER_OVERLOADED, "short_retry",
                turn("sk-proj-planted0secret0value0000", "ghp_planted0secret0value00000000"), "Bearer planted0secret");

        assertThat(decisions()).hasSize(1);
        assertThat(decisions().get(0)).containsEntry("agent_type", "other").containsEntry("provider", "other")
                .containsEntry("rule_id", "other");
        Counter c = registry.find(RecourseMeters.POLICY_DECISIONS).counter();
        assertThat(c.count()).isEqualTo(51.0);
        assertThat(c.getId().toString()).doesNotContain("planted0secret").doesNotContain("fake-");
    }

    @Test
    public void the_evidence_fallbacks_and_configured_names_are_kept_and_absent_values_read_none() {
        RecourseMeters meters = new RecourseMeters(new EvidenceCounters(registry), Set.of("Acme-ACP"), Set.of("acme-ai"));

        meters.policyDecision(RecourseMeters.Context.KANBAN, Code.AGENT_RUNTIME_ERROR, "manual",
                turn("acme-acp", "acme-ai"), "evidence.fallback.poststart");
        meters.policyDecision(RecourseMeters.Context.KANBAN, null, "manual", null, null);

        assertThat(decisions()).containsExactlyInAnyOrder(
                Map.of("context", "kanban", "code", "agent_runtime_error", "result", "manual", "agent_type", "acme-acp",
                        "provider", "acme-ai", "rule_id", "evidence.fallback.poststart"),
                Map.of("context", "kanban", "code", "none", "result", "manual", "agent_type", "none",
                        "provider", "none", "rule_id", "none"));
    }

    @Test
    public void a_rule_id_is_never_admitted_first_come_before_the_catalogue_names_it() {
        RecourseMeters meters = new RecourseMeters(new EvidenceCounters(registry));
        meters.policyDecision(RecourseMeters.Context.KANBAN, Code.RATE_LIMITED, "manual", null, "openai.rate_limit.v1");
        meters.allowRuleIds(Set.of("OpenAI.Rate_Limit.V1"));
        meters.policyDecision(RecourseMeters.Context.KANBAN, Code.RATE_LIMITED, "manual", null, "openai.rate_limit.v1");

        assertThat(decisions()).extracting(m -> m.get("rule_id")).containsExactlyInAnyOrder("other", "openai.rate_limit.v1");
    }
}
