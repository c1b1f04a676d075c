package io.recourse.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.recourse.avro.SessionStateValue;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /sessions/{id}/recovery} shows the quota reset and the remediation the interactive
 * owner stored (DESIGN §6.5), and neither for a failure that has none.
 */
class StateQueriesRecoveryTest {

    private static final Instant EVENT = Instant.parse("2026-11-30T08:00:00Z");
    private static final Instant RESET = Instant.parse("2026-11-30T11:00:00Z");

    private static SessionStateValue.Builder manual(String code) {
        return SessionStateValue.newBuilder().setSessionId("s1").setHighestGeneration(3)
                .setLastOutcomeGeneration(3).setLastEventAt(EVENT).setStatus("manual")
                .setReason("user_action_required").setCode(code);
    }

    @Test
    void aQuotaFailureShowsItsResetAndWaitForReset() {
        JsonNode view = StateQueries.recovery(manual("quota_limited").setResetAt(RESET).build());

        assertThat(view.path("reset_at").asText()).isEqualTo("2026-11-30T11:00:00Z");
        assertThat(view.path("remediation").asText()).isEqualTo("wait_for_reset");
        assertThat(view.path("waiting_for").asText()).isEqualTo("user");
    }

    @Test
    void eachHardCodeShowsItsRemediation() {
        assertThat(StateQueries.recovery(manual("auth_required").build()).path("remediation").asText())
                .isEqualTo("reconnect");
        assertThat(StateQueries.recovery(manual("subscription_required").build()).path("remediation").asText())
                .isEqualTo("change_plan");
        assertThat(StateQueries.recovery(manual("model_unavailable").build()).path("remediation").asText())
                .isEqualTo("configure");
    }

    @Test
    void aTransientOrUnknownCodeShowsNeither() {
        JsonNode transientFailure = StateQueries.recovery(manual("provider_overloaded").build());
        JsonNode unknown = StateQueries.recovery(manual("not_a_code").build());
        JsonNode none = StateQueries.recovery(manual(null).build());

        for (JsonNode view : new JsonNode[] {transientFailure, unknown, none}) {
            assertThat(view.get("reset_at").isNull()).isTrue();
            assertThat(view.get("remediation").isNull()).isTrue();
        }
    }
}
