package io.recourse.taxonomy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

public class CodeTest {

    @Test
    public void everyCodeOfTheTaxonomyHasTheClassOfDesignSection51() {
        Map<String, String> expected = Map.ofEntries(
                Map.entry("network_unavailable", "transient"),
                Map.entry("provider_overloaded", "transient"),
                Map.entry("provider_unavailable", "transient"),
                Map.entry("model_capacity", "transient"),
                Map.entry("agent_transport_lost", "transient"),
                Map.entry("rate_limited", "transient"),
                Map.entry("quota_limited", "hard"),
                Map.entry("auth_required", "hard"),
                Map.entry("missing_credentials", "hard"),
                Map.entry("subscription_required", "hard"),
                Map.entry("model_unavailable", "hard"),
                Map.entry("provider_not_configured", "hard"),
                Map.entry("permission_denied_by_user", "outside"),
                Map.entry("task_error", "outside"),
                Map.entry("repo_error", "outside"),
                Map.entry("context_window_exceeded", "outside"),
                Map.entry("resume_corrupted", "outside"),
                Map.entry("invalid_request", "outside"),
                Map.entry("unknown_provider_error", "unclassified"),
                Map.entry("agent_runtime_error", "unclassified"));
        Map<String, String> actual = Arrays.stream(Code.values())
                .collect(Collectors.toMap(Code::wire, c -> c.errorClass().wire()));
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    public void wireNamesRoundTripAndUnknownNamesAreRejected() {
        for (Code c : Code.values()) {
            assertThat(Code.fromWire(c.wire())).isSameAs(c);
        }
        assertThatThrownBy(() -> Code.fromWire("billing_required"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("billing_required");
    }

    @Test
    public void confidenceAtMostKeepsTheWeaker() {
        assertThat(Confidence.HIGH.atMost(Confidence.MEDIUM)).isEqualTo(Confidence.MEDIUM);
        assertThat(Confidence.LOW.atMost(Confidence.MEDIUM)).isEqualTo(Confidence.LOW);
    }
}
