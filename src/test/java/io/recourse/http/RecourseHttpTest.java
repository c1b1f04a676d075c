package io.recourse.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.recourse.avro.SessionChain;
import io.recourse.avro.SessionStateValue;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.recourse.config.RecourseConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;

/** The HTTP server's pure parts: path ids, the recovery view, the store names and the OpenAPI document. */
class RecourseHttpTest {

    @Test
    void path_ids_decode_strictly_and_keep_a_plus() {
        assertThat(HttpIds.id("ws%2Fa+b")).hasValue("ws/a+b");
        assertThat(HttpIds.id("bad%zz")).isEmpty();
        assertThat(HttpIds.segment("a b/c")).isEqualTo("a%20b%2Fc");
    }

    @Test
    void an_encoded_lone_surrogate_or_a_malformed_escape_is_no_id() {
        assertThat(HttpIds.id("%ED%A0%80")).isEmpty(); // U+D800 in UTF-8: no valid UTF-8
        assertThat(HttpIds.id("%C0%AF")).isEmpty();    // overlong '/'
        assertThat(HttpIds.id("a%2")).isEmpty();
        assertThat(HttpIds.id("%E2%82%AC")).hasValue("\u20ac");
        assertThat(HttpIds.queryParameter("x=1&workspace_id=ws%2Fa", "workspace_id")).hasValue("ws%2Fa");
        assertThat(HttpIds.queryParameter(null, "workspace_id")).isEmpty();
    }

    @Test
    void invalid_ids_answer_400_with_the_json_body_before_any_store_is_asked() throws Exception {
        try (RecourseHttp http = new RecourseHttp(() -> null, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), () -> 0,
                Instant::now, null, "127.0.0.1", 0)) {
            for (String path : List.of("/sessions/%ED%A0%80/recovery", "/workspaces/%ED%A0%80/runs", "/runs/%ED%A0%80",
                    "/workspaces/ws/runs/%ED%A0%80", "/runs/r1?workspace_id=%ED%A0%80")) {
                String[] parts = path.split("\\?", 2);
                RecourseHttp.Answer a = http.answer(parts[0], parts.length > 1 ? parts[1] : null, false);
                assertThat(a.status()).as(path).isEqualTo(400);
                JsonNode body = new ObjectMapper().readTree(a.body());
                assertThat(body.get("error").asText()).isEqualTo("bad_id");
                assertThat(body.get("reason").asText()).contains("not valid percent-encoded UTF-8");
            }
            // a valid id while Streams is not started: unavailable, not a bad request
            assertThat(http.answer("/workspaces/ws/runs/r1", null, false).status()).isEqualTo(503);
            assertThat(http.answer("/runs/r1", "workspace_id=ws", false).status()).isEqualTo(503);
        }
    }

    @Test
    void application_server_names_this_instance() {
        assertThat(RecourseHttp.applicationServer(RecourseConfig.defaults())).isNull();
        assertThat(RecourseHttp.applicationServer(RecourseConfig.of(Map.of("application.server", "10.0.0.5:9464"))))
                .isEqualTo(new HostInfo("10.0.0.5", 9464));
    }

    @Test
    void the_recovery_view_says_what_the_owner_waits_for_and_hides_raw_labels() {
        SessionStateValue v = SessionStateValue.newBuilder().setSessionId("s1").setHighestGeneration(2)
                .setLastOutcomeGeneration(1).setLastEventAt(Instant.parse("2026-12-01T10:00:00Z")).setStatus("scheduled")
                .setProviderId("Not A Name!").setModelId("secret-model").setStartedGeneration(1)
                .setChain(SessionChain.newBuilder().setStartGeneration(1).setAttempt(1).setExpectedGeneration(2)
                        .setPendingCommandId("c1").setRetryAt(Instant.parse("2026-12-01T10:00:05Z"))
                        .setPromptDigest("0".repeat(64)).build())
                .build();
        JsonNode j = StateQueries.recovery(v);
        assertThat(j.get("waiting_for").asText()).isEqualTo("retry_at");
        assertThat(j.get("countdown_to").asText()).isEqualTo("2026-12-01T10:00:05Z");
        assertThat(j.get("provider_label").asText()).isEqualTo("other");
        assertThat(j.toString()).doesNotContain("secret-model", "0000000000");
    }

    @Test
    void the_stores_read_are_the_topologys() throws Exception {
        String topology = Files.readString(Path.of("topology-docs", "topology.txt"));
        assertThat(StateQueries.STORES).allSatisfy(s -> assertThat(topology).contains(s));
    }

    @Test
    void the_openapi_document_describes_every_query() throws Exception {
        JsonNode doc = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                RecourseHttp.class.getClassLoader().getResourceAsStream("http/openapi.json"));
        assertThat(doc.get("openapi").asText()).startsWith("3.");
        assertThat(doc.get("paths").fieldNames()).toIterable().contains("/sessions/{session_id}/recovery",
                "/workspaces/{workspace_id}/provider-health", "/workspaces/{workspace_id}/runs",
                "/workspaces/{workspace_id}/parked-runs", "/runs/{run_id}", "/workspaces/{workspace_id}/runs/{run_id}", "/health/ready", "/metrics");
    }
}
