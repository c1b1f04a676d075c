package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.config.RecourseConfig;
import io.recourse.evidence.TurnContext;
import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import io.recourse.topology.RecourseTopology;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Prometheus endpoint of DESIGN §10: {@code /metrics} text and {@code /healthz}, on a free loopback port. */
public class RecourseMetricsTest {

    public final RecourseMetrics metrics = new RecourseMetrics();
    public final AtomicReference<KafkaStreams.State> state = new AtomicReference<>(KafkaStreams.State.RUNNING);
    public final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    @TempDir
    public java.nio.file.Path stateDir;

    @AfterEach
    public void close() {
        metrics.close();
    }

    @Test
    public void metrics_serves_the_prometheus_text_with_the_classification_counter_after_a_classification() throws Exception {
        InetSocketAddress address = metrics.serve("127.0.0.1", 0, state::get);
        metrics.meters().classified(new Classification(Code.PROVIDER_OVERLOADED, Confidence.HIGH, "anthropic.overloaded.529.v1",
                "provider-errors.v1", Scope.PROVIDER, null, null, false), context("claude-acp", "anthropic"));

        HttpResponse<String> r = get(address, "/metrics");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue(RecourseMetrics.PROMETHEUS_TEXT);
        assertThat(r.body()).containsPattern("(?m)^recourse_classifications_total\\{[^}]*code=\"provider_overloaded\"[^}]*} 1\\.0$");
        assertThat(r.body()).contains("rule_id=\"anthropic.overloaded.529.v1\"", "agent_type=\"claude-acp\"",
                "provider=\"anthropic\"", "class=\"transient\"", "confidence=\"high\"");
        assertThat(r.body()).as("the evidence counters share the registry").contains("evidence_expired_total");
        assertThat(r.body()).as("JVM binders").contains("jvm_memory_used_bytes");
    }

    @Test
    public void a_provider_outside_the_allow_list_and_the_configuration_is_exposed_as_other() throws Exception {
        try (RecourseMetrics configured = new RecourseMetrics(
                RecourseConfig.of(java.util.Map.of(RecourseConfig.METRICS_PROVIDERS, "provider-7")))) {
            InetSocketAddress address = configured.serve("127.0.0.1", 0, state::get);
            Classification c = new Classification(Code.NETWORK_UNAVAILABLE, Confidence.HIGH, "r.v1", "v1", Scope.PROVIDER, null, null, false);
            for (int i = 0; i < 40; i++) {
                configured.meters().classified(c, context("claude-acp", "provider-" + i));
            }
            configured.meters().classified(c, context("claude-acp", "openrouter"));

            String body = get(address, "/metrics").body();

            assertThat(body).contains("provider=\"provider-7\"", "provider=\"openrouter\"", "provider=\"other\"")
                    .doesNotContain("provider=\"provider-0\"");
            assertThat(body.lines().filter(l -> l.startsWith("recourse_classifications_total{"))).hasSize(3);
        }
    }

    @Test
    public void healthz_is_200_while_streams_runs_or_rebalances_and_503_otherwise() throws Exception {
        InetSocketAddress address = metrics.serve("127.0.0.1", 0, state::get);

        HttpResponse<String> running = get(address, "/healthz");
        state.set(KafkaStreams.State.REBALANCING);
        HttpResponse<String> rebalancing = get(address, "/healthz");
        state.set(KafkaStreams.State.ERROR);
        HttpResponse<String> error = get(address, "/healthz");
        state.set(null);
        HttpResponse<String> none = get(address, "/healthz");

        assertThat(running.statusCode()).isEqualTo(200);
        assertThat(running.body()).isEqualTo("RUNNING\n");
        assertThat(rebalancing.statusCode()).isEqualTo(200);
        assertThat(error.statusCode()).isEqualTo(503);
        assertThat(error.body()).isEqualTo("ERROR\n");
        assertThat(none.statusCode()).isEqualTo(503);
    }

    @Test
    public void another_path_is_404() throws Exception {
        InetSocketAddress address = metrics.serve("127.0.0.1", 0, state::get);

        assertThat(get(address, "/metrics/x").statusCode()).isEqualTo(404);
        assertThat(get(address, "/").statusCode()).isEqualTo(404);
    }

    @Test
    public void the_kafka_streams_client_metrics_are_bound_into_the_same_registry() {
        Properties props = new Properties();
        props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "recourse-metrics-test",
                StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1", StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()));
        try (KafkaStreams streams = new KafkaStreams(RecourseTopology.build(RecourseConfig.defaults(),
                RecourseTopology.Options.with(metrics.meters())), props)) {
            metrics.bind(streams);

            assertThat(metrics.registry().getMeters()).as("kafka.stream.* meters")
                    .anySatisfy(m -> assertThat(m.getId().getName()).startsWith("kafka.stream"));
        }
    }

    @Test
    void the_rocksdb_number_open_files_counter_of_minus_one_is_not_registered_so_the_scrape_succeeds() throws Exception {
        InetSocketAddress address = metrics.serve("127.0.0.1", 0, state::get);
        java.util.concurrent.atomic.AtomicLong openFiles = new java.util.concurrent.atomic.AtomicLong(-1);
        io.micrometer.core.instrument.FunctionCounter.builder(RecourseMetrics.ROCKSDB_NUMBER_OPEN_FILES, openFiles,
                java.util.concurrent.atomic.AtomicLong::doubleValue).tag("rocksdb.state.id", "s").register(metrics.registry());
        io.micrometer.core.instrument.FunctionCounter.builder("kafka.stream.state.bytes.written.total", openFiles,
                v -> 7).tag("rocksdb.state.id", "s").register(metrics.registry());

        HttpResponse<String> r = get(address, "/metrics");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("kafka_stream_state_bytes_written_total{rocksdb_state_id=\"s\"} 7.0")
                .doesNotContain("number_open_files");
    }

    private HttpResponse<String> get(InetSocketAddress address, String path) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + address.getPort() + path);
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static TurnContext context(String agentType, String provider) {
        return new TurnContext("s1", 1, PromptOrigin.USER, null, null, ProfileKind.CONCRETE, agentType, "ap", "ep", provider,
                "m", null, null, null, false);
    }
}
