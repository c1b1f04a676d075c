package io.recourse.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.recourse.classification.Catalogue;
import io.recourse.classification.Classifier;
import io.recourse.classification.Rule;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.taxonomy.Code;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Building the topology tells the meters the loaded catalogue's rule ids (DESIGN §10): every rule
 * and both fallbacks of the catalogue are a decision's {@code rule_id} values, nothing else.
 */
public class DecisionRuleIdsTest {

    @Test
    public void the_catalogue_s_rules_and_fallbacks_become_the_decision_rule_ids() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RecourseMeters meters = new RecourseMeters(registry);
        Catalogue catalogue = Classifier.withDefaultCatalogue().catalogue();
        String rule = catalogue.rules().get(0).id();

        RecourseTopology.build(RecourseConfig.of(Map.of(RecourseConfig.APPLICATION_ID, "recourse-rule-ids")),
                RecourseTopology.Options.with(meters));
        meters.policyDecision(RecourseMeters.Context.KANBAN, Code.PROVIDER_OVERLOADED, "manual", null, rule);
        meters.policyDecision(RecourseMeters.Context.KANBAN, Code.AGENT_RUNTIME_ERROR, "manual", null,
                catalogue.postStartFallback().ruleId());
        meters.policyDecision(RecourseMeters.Context.KANBAN, Code.UNKNOWN_PROVIDER_ERROR, "manual", null, "not.in.catalogue.v1");

        assertThat(registry.find(RecourseMeters.POLICY_DECISIONS).counters())
                .extracting(c -> c.getId().getTag("rule_id"))
                .containsExactlyInAnyOrder(rule.toLowerCase(java.util.Locale.ROOT),
                        catalogue.postStartFallback().ruleId().toLowerCase(java.util.Locale.ROOT), "other");
        assertThat(RecourseTopology.ruleIds(catalogue)).hasSize(catalogue.rules().size() + 2)
                .containsAll(catalogue.rules().stream().map(Rule::id).toList());
    }
}
