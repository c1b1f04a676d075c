package io.recourse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class RecourseConfigTest {

    @TempDir
    public Path dir;

    @Test
    public void defaults_use_the_design_topic_names_and_bounds() {
        RecourseConfig config = RecourseConfig.defaults();

        assertThat(config.topicName(RecourseConfig.TOPIC_AGENT_FRAMES)).isEqualTo("recourse.agent-frames");
        assertThat(config.topicName(RecourseConfig.TOPIC_DLQ)).isEqualTo("recourse.dlq");
        assertThat(config.topicName(RecourseConfig.TOPIC_OFFICE_PARKED_RUNS)).isEqualTo("recourse.office.parked-runs");
        assertThat(RecourseConfig.topicKeys()).as("one key per topic of DESIGN §2's table, in its order")
                .hasSizeGreaterThanOrEqualTo(18).isEqualTo(designTopicKeys());
        assertThat(config.topicPartitions()).isEqualTo(6);
        assertThat(config.ownerPartitions()).isEqualTo(6);
        assertThat(config.processingGuarantee()).isEqualTo("exactly_once_v2");
        assertThat(config.punctuationInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.staleness()).isEqualTo(Duration.ofMinutes(5));
        assertThat(config.evidenceIdle()).isEqualTo(Duration.ofHours(2));
        assertThat(config.evidenceRetention()).isEqualTo(Duration.ofHours(6));
        assertThat(config.dispatchTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.evidenceMaxSignals()).isEqualTo(32);
        assertThat(config.evidenceMaxSignalBytes()).isEqualTo(4096);
        assertThat(config.evidenceMaxTurnBytes()).isEqualTo(16384);
        assertThat(config.frameMaxBytes()).isEqualTo(262144);
    }

    /** {@code recourse.topic.<id>} for each {@code recourse.<id>} row of DESIGN §2's topic table. */
    private static java.util.List<String> designTopicKeys() {
        try {
            String design = java.nio.file.Files.readString(java.nio.file.Path.of("docs/DESIGN.md"));
            String section = design.substring(design.indexOf("## 2. Topics"), design.indexOf("## 3."));
            java.util.List<String> keys = new java.util.ArrayList<>();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^\\| `recourse\\.([a-z.-]+)` \\|").matcher(section);
            while (m.find()) {
                keys.add("recourse.topic." + m.group(1));
            }
            return keys;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    public void the_evidence_turn_cache_holds_ten_thousand_turns_per_task_by_default_and_zero_turns_it_off() {
        assertThat(RecourseConfig.defaults().evidenceTurnCacheEntries()).isEqualTo(10_000);
        assertThat(RecourseConfig.of(Map.of(RecourseConfig.EVIDENCE_TURN_CACHE_ENTRIES, "0")).evidenceTurnCacheEntries()).isZero();
    }

    @Test
    public void metric_label_lists_are_empty_by_default_and_read_as_comma_separated_names() {
        assertThat(RecourseConfig.defaults().metricsAgentTypes()).isEmpty();
        assertThat(RecourseConfig.of(Map.of(RecourseConfig.METRICS_AGENT_TYPES, "acme-acp, tiny-cli")).metricsAgentTypes())
                .containsExactly("acme-acp", "tiny-cli");
        assertThat(RecourseConfig.of(Map.of(RecourseConfig.METRICS_PROVIDERS, "acme-ai")).metricsProviders())
                .containsExactly("acme-ai");
    }

    @Test
    public void a_metric_label_that_is_not_a_name_fails_naming_the_key() {
        assertThatThrownBy(() -> RecourseConfig.of(Map.of(RecourseConfig.METRICS_PROVIDERS, "acme ai")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("recourse.metrics.providers");
    }

    @Test
    public void a_negative_evidence_turn_cache_size_fails_naming_the_key() {
        assertThatThrownBy(() -> RecourseConfig.of(Map.of(RecourseConfig.EVIDENCE_TURN_CACHE_ENTRIES, "-1")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("recourse.evidence.turn.cache.entries");
    }

    @Test
    public void the_metrics_endpoint_listens_on_loopback_port_9464_by_default() {
        RecourseConfig config = RecourseConfig.defaults();

        assertThat(config.metricsPort()).hasValue(9464);
        assertThat(config.metricsHost()).isEqualTo("127.0.0.1");
    }

    @Test
    public void metrics_port_zero_is_a_free_port_and_minus_one_turns_the_endpoint_off() {
        assertThat(RecourseConfig.of(Map.of(RecourseConfig.METRICS_PORT, "0")).metricsPort()).hasValue(0);
        assertThat(RecourseConfig.of(Map.of(RecourseConfig.METRICS_PORT, "-1")).metricsPort()).isEmpty();
    }

    @Test
    public void a_metrics_port_out_of_range_fails_naming_the_key_and_value() {
        assertThatThrownBy(() -> RecourseConfig.of(Map.of(RecourseConfig.METRICS_PORT, "65536")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("recourse.metrics.port").hasMessageContaining("65536");
        assertThatThrownBy(() -> RecourseConfig.of(Map.of(RecourseConfig.METRICS_PORT, "-2")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("recourse.metrics.port");
        assertThatThrownBy(() -> RecourseConfig.of(Map.of(RecourseConfig.METRICS_PORT, "http")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("recourse.metrics.port");
    }

    @Test
    public void the_metrics_port_is_set_by_its_environment_variable() {
        RecourseConfig config = RecourseConfig.load(null, Map.of("RECOURSE_METRICS_PORT", "-1"));

        assertThat(config.metricsPort()).isEmpty();
    }

    @Test
    public void without_bootstrap_servers_recourse_runs_embedded_and_creates_topics() {
        RecourseConfig config = RecourseConfig.defaults();

        assertThat(config.embedded()).isTrue();
        assertThat(config.createTopics()).isTrue();
    }

    @Test
    public void with_an_external_cluster_recourse_creates_topics_only_when_told() {
        RecourseConfig external = RecourseConfig.of(Map.of("bootstrap.servers", "kafka:9092"));
        RecourseConfig told = RecourseConfig.of(Map.of("bootstrap.servers", "kafka:9092", RecourseConfig.TOPICS_CREATE, "true"));

        assertThat(external.embedded()).isFalse();
        assertThat(external.createTopics()).isFalse();
        assertThat(told.createTopics()).isTrue();
    }

    @Test
    public void environment_variables_override_the_file_which_overrides_defaults() throws Exception {
        Path file = dir.resolve("recourse.properties");
        Files.writeString(file, """
                recourse.topic.partitions=3
                recourse.owner.partitions=4
                bootstrap.servers=file:9092
                """);
        Map<String, String> env = Map.of("RECOURSE_OWNER_PARTITIONS", "8", "RECOURSE_BOOTSTRAP_SERVERS", "env:9092",
                "PATH", "/usr/bin");

        RecourseConfig config = RecourseConfig.load(file, env);

        assertThat(config.topicPartitions()).isEqualTo(3);
        assertThat(config.ownerPartitions()).isEqualTo(8);
        assertThat(config.bootstrapServers()).contains("env:9092");
    }

    @Test
    public void environment_names_map_onto_recourse_keys_with_hyphens_and_onto_kafka_keys() {
        Map<String, String> mapped = RecourseConfig.fromEnvironment(Map.of(
                "RECOURSE_TOPIC_AGENT_FRAMES", "frames",
                "RECOURSE_SASL_JAAS_CONFIG", "jaas",
                "RECOURSE_STATE_DIR", "/var/lib/recourse",
                "OTHER", "ignored"));

        assertThat(mapped).containsExactlyInAnyOrderEntriesOf(Map.of(
                RecourseConfig.TOPIC_AGENT_FRAMES, "frames",
                "sasl.jaas.config", "jaas",
                "state.dir", "/var/lib/recourse"));
        assertThat(RecourseConfig.envName(RecourseConfig.TOPIC_KANBAN_RECOVERY_STATE)).isEqualTo("RECOURSE_TOPIC_KANBAN_RECOVERY_STATE");
    }

    @Test
    public void kafka_client_and_security_properties_pass_through_to_streams_unchanged() {
        RecourseConfig config = RecourseConfig.of(Map.of(
                "bootstrap.servers", "kafka:9093",
                "security.protocol", "SASL_SSL",
                "sasl.mechanism", "SCRAM-SHA-512",
                "ssl.truststore.location", "/etc/kafka/truststore.jks",
                "kafka.num.stream.threads", "2"));

        Map<String, String> streams = config.streamsProperties();

        assertThat(streams).containsEntry("bootstrap.servers", "kafka:9093")
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("ssl.truststore.location", "/etc/kafka/truststore.jks")
                .containsEntry("num.stream.threads", "2")
                .containsEntry("processing.guarantee", "exactly_once_v2")
                .containsEntry("application.id", "recourse")
                .doesNotContainKey(RecourseConfig.TOPIC_PARTITIONS);
        assertThat(streams.get("state.dir")).endsWith("streams");
    }

    @Test
    public void a_non_numeric_value_fails_naming_key_and_value() {
        assertThatThrownBy(() -> RecourseConfig.of(Map.of(RecourseConfig.TOPIC_PARTITIONS, "six")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("recourse.topic.partitions=six")
                .extracting(e -> ((ConfigurationException) e).key()).isEqualTo(RecourseConfig.TOPIC_PARTITIONS);
    }

    @Test
    public void a_value_out_of_range_fails_naming_key_and_value() {
        assertThatThrownBy(() -> RecourseConfig.of(Map.of(RecourseConfig.OWNER_PARTITIONS, "0")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("recourse.owner.partitions=0");
    }

    @Test
    public void an_idle_bound_not_below_the_signal_retention_fails() {
        assertThatThrownBy(() -> RecourseConfig.of(Map.of(
                RecourseConfig.EVIDENCE_IDLE_MS, "21600000", RecourseConfig.EVIDENCE_RETENTION_MS, "21600000")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining(RecourseConfig.EVIDENCE_IDLE_MS + "=21600000")
                .hasMessageContaining(RecourseConfig.EVIDENCE_RETENTION_MS);
    }

    @Test
    public void an_illegal_topic_name_fails_naming_key_and_value() {
        assertThatThrownBy(() -> RecourseConfig.of(Map.of(RecourseConfig.TOPIC_DLQ, "dead letters")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("recourse.topic.dlq=dead letters");
    }

    @Test
    public void two_roles_on_one_topic_fail() {
        assertThatThrownBy(() -> RecourseConfig.of(Map.of(RecourseConfig.TOPIC_DLQ, "recourse.agent-frames")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("recourse.topic.dlq=recourse.agent-frames")
                .hasMessageContaining(RecourseConfig.TOPIC_AGENT_FRAMES);
    }

    @Test
    public void an_unknown_processing_guarantee_fails() {
        assertThatThrownBy(() -> RecourseConfig.of(Map.of("processing.guarantee", "exactly_once")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("processing.guarantee=exactly_once");
    }

    @Test
    public void an_unreadable_file_fails_naming_it() {
        Path missing = dir.resolve("missing.properties");

        assertThatThrownBy(() -> RecourseConfig.load(missing, Map.of()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("missing.properties");
    }

    @Test
    public void printing_the_configuration_hides_secrets() {
        RecourseConfig config = RecourseConfig.of(Map.of(
                "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required password=\"hunter2\";",
                "ssl.keystore.password", "changeit"));

        assertThat(config.toString()).doesNotContain("hunter2").doesNotContain("changeit").contains("[hidden]");
    }
}
