package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recourse.config.ConfigurationException;
import io.recourse.config.RecourseConfig;
import io.recourse.topology.RecourseTopology;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class RecourseRunnerIT {

    private static EmbeddedTestBroker broker;

    @TempDir
    public Path stateDir;

    @BeforeAll
    public static void startBroker() {
        broker = EmbeddedTestBroker.start();
    }

    @AfterAll
    public static void stopBroker() {
        broker.close();
    }

    @Test
    public void without_a_cluster_the_runner_starts_an_embedded_broker_creates_the_topics_and_runs() throws Exception {
        RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.STATE_DIR, stateDir.toString(),
                RecourseConfig.TOPIC_PARTITIONS, "2"));
        EmbeddedKafkaBroker embedded;

        try (RecourseRunner runner = new RecourseRunner(config).start()) {
            embedded = runner.broker();
            assertThat(embedded.dataDir()).startsWith(stateDir.toAbsolutePath());
            assertThat(runner.createdTopics()).hasSize(RecourseConfig.topicKeys().size());
            assertThat(runner.streams().state().isRunningOrRebalancing()).isTrue();
            try (Admin admin = admin(runner.bootstrapServers())) {
                ConfigResource frames = new ConfigResource(ConfigResource.Type.TOPIC, "recourse.agent-frames");
                assertThat(admin.describeConfigs(List.of(frames)).all().get().get(frames)
                        .get("message.timestamp.type").value()).isEqualTo("LogAppendTime");
                ConfigResource health = new ConfigResource(ConfigResource.Type.TOPIC, "recourse.office.provider-health");
                assertThat(admin.describeConfigs(List.of(health)).all().get().get(health)
                        .get("cleanup.policy").value()).isEqualTo("compact");
            }
        }

        assertThat(embedded.running()).isFalse();
    }

    @Test
    public void the_runner_serves_metrics_and_health_while_running_and_stops_serving_on_close() throws Exception {
        RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.STATE_DIR, stateDir.toString(),
                RecourseConfig.TOPIC_PARTITIONS, "1", RecourseConfig.OWNER_PARTITIONS, "1", RecourseConfig.METRICS_PORT, "0"));
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.URI metrics;
        java.net.URI health;

        java.util.concurrent.atomic.AtomicReference<io.recourse.http.RecourseHttp> server = new java.util.concurrent.atomic.AtomicReference<>();
        try (RecourseRunner runner = new RecourseRunner(config).withEndpoint(r -> {
            server.set(io.recourse.http.RecourseHttp.start(r));
            return server.get();
        }).start()) {
            int port = server.get().address().getPort();
            metrics = java.net.URI.create("http://127.0.0.1:" + port + "/metrics");
            health = java.net.URI.create("http://127.0.0.1:" + port + "/healthz");

            var scraped = http.send(java.net.http.HttpRequest.newBuilder(metrics).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            var healthz = http.send(java.net.http.HttpRequest.newBuilder(health).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());

            assertThat(scraped.statusCode()).isEqualTo(200);
            assertThat(scraped.body()).as("Kafka Streams client metrics").contains("kafka_stream_");
            assertThat(scraped.body()).as("the evidence counters").contains("evidence_expired_total");
            assertThat(healthz.statusCode()).isEqualTo(200);
        }

        assertThatThrownBy(() -> http.send(java.net.http.HttpRequest.newBuilder(health).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString())).isInstanceOf(java.io.IOException.class);
    }

    @Test
    public void a_runner_restarted_on_the_same_state_dir_finds_its_broker_and_topics_again() {
        RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.STATE_DIR, stateDir.toString(),
                RecourseConfig.TOPIC_PARTITIONS, "1"));
        String first;
        try (RecourseRunner runner = new RecourseRunner(config).start()) {
            first = runner.bootstrapServers();
        }

        try (RecourseRunner again = new RecourseRunner(config).start()) {
            assertThat(again.bootstrapServers()).isEqualTo(first);
            assertThat(again.createdTopics()).isEmpty();
            assertThat(again.streams().state().isRunningOrRebalancing()).isTrue();
        }
    }

    @Test
    public void startup_fails_naming_the_frames_topic_when_it_does_not_use_log_append_time() throws Exception {
        String frames = "plain-frames-" + UUID.randomUUID();
        try (Admin admin = admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(frames, 1, (short) 1))).all().get();
        }
        RecourseConfig config = RecourseConfig.of(Map.of(
                RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers(),
                RecourseConfig.TOPIC_AGENT_FRAMES, frames,
                RecourseConfig.STATE_DIR, stateDir.toString()));

        assertThatThrownBy(() -> new RecourseRunner(config).start())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(frames)
                .hasMessageContaining("LogAppendTime");
    }

    @Test
    public void startup_fails_naming_the_topics_when_an_owners_sources_are_not_co_partitioned() throws Exception {
        String app = "recourse-copartition-" + UUID.randomUUID();
        String events = app + "-" + RecourseTopology.SESSION_EVENTS_BY_SESSION + "-repartition";
        String controls = app + "-" + RecourseTopology.SESSION_CONTROLS_BY_SESSION + "-repartition";
        try (Admin admin = admin(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(events, 2, (short) 1), new NewTopic(controls, 3, (short) 1))).all().get();
        }
        RecourseConfig config = RecourseConfig.of(Map.of(
                RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers(),
                RecourseConfig.TOPICS_CREATE, "true",
                RecourseConfig.TOPIC_PARTITIONS, "2",
                RecourseConfig.APPLICATION_ID, app,
                RecourseConfig.STATE_DIR, stateDir.toString()));

        assertThatThrownBy(() -> new RecourseRunner(config).start())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("interactive")
                .hasMessageContaining(events)
                .hasMessageContaining(controls);
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }
}
