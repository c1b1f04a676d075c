package io.recourse.evidence.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.recourse.evidence.TurnContext;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code agent_type} and {@code provider} label values come from the allow-list plus configuration (DESIGN §10). */
public class MetricLabelAllowListTest {

    private static final Classification OVERLOADED = new Classification(Code.PROVIDER_OVERLOADED, Confidence.HIGH,
            "anthropic.overloaded.529.v1", "provider-errors.v1", Scope.PROVIDER, null, null, false);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private static TurnContext turn(String agentType, String provider) {
        return new TurnContext("s1", 1, null, null, null, null, agentType, null, null, provider, "m", null, null, null,
                false);
    }

    private List<String> tagValues(String tag) {
        return registry.find(RecourseMeters.CLASSIFICATIONS).counters().stream()
                .map(c -> c.getId().getTag(tag)).sorted().toList();
    }

    @Test
    public void a_built_in_adapter_keeps_its_name_even_after_many_unknown_ones() {
        RecourseMeters meters = new RecourseMeters(new EvidenceCounters(registry));
        for (int i = 0; i < 100; i++) {
            meters.classified(OVERLOADED, turn("fake-adapter-" + i, "fake-provider-" + i));
        }
        meters.classified(OVERLOADED, turn("qwen-code", "dashscope"));

        assertThat(tagValues("agent_type")).containsOnly("other", "qwen-code");
        assertThat(tagValues("provider")).containsOnly("other", "dashscope");
    }

    @Test
    public void a_configured_adapter_and_provider_keep_their_names() {
        RecourseMeters meters = new RecourseMeters(new EvidenceCounters(registry), Set.of("Acme-ACP"), Set.of("acme-ai"));
        meters.classified(OVERLOADED, turn("acme-acp", "acme-ai"));

        assertThat(tagValues("agent_type")).containsExactly("acme-acp");
        assertThat(tagValues("provider")).containsExactly("acme-ai");
    }

    @Test
    public void a_planted_secret_never_becomes_a_label_value() {
        RecourseMeters meters = new RecourseMeters(new EvidenceCounters(registry));
        meters.classified(OVERLOADED, turn("sk-proj-planted0secret0value0000", "ghp_planted0secret0value00000000"));

        assertThat(tagValues("agent_type")).containsExactly("other");
        assertThat(tagValues("provider")).containsExactly("other");
        Counter c = registry.find(RecourseMeters.CLASSIFICATIONS).counter();
        assertThat(c.getId().toString()).doesNotContain("planted0secret");
    }
}
