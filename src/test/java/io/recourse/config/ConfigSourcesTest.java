package io.recourse.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigSourcesTest {

    /** Stands in for Kafka's own configuration names (the CLI passes those). */
    private static final Predicate<String> KAFKA = Set.of("bootstrap.servers", "sasl.jaas.config", "max.request.size")::contains;

    @TempDir
    Path dir;

    @Test
    void a_misspelt_key_in_the_file_fails_with_the_closest_known_key() throws Exception {
        Path file = Files.writeString(dir.resolve("r.properties"), "recourse.dispatch.timout.ms=5000\n");

        assertThatThrownBy(() -> RecourseConfig.load(file, Map.of()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("unknown key recourse.dispatch.timout.ms")
                .hasMessageContaining("did you mean recourse.dispatch.timeout.ms?")
                .hasMessageContaining(ConfigSources.ALLOW_UNKNOWN);
    }

    @Test
    void a_misspelt_environment_variable_fails_with_the_closest_known_variable() {
        assertThatThrownBy(() -> RecourseConfig.load(null, Map.of("RECOURSE_STALENES_MS", "1000"), Map.of(), Map.of(), KAFKA))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("RECOURSE_STALENES_MS")
                .hasMessageContaining("did you mean RECOURSE_STALENESS_MS?");
    }

    @Test
    void kafka_keys_pass_through_unchecked_from_every_source() throws Exception {
        Path file = Files.writeString(dir.resolve("r.properties"), "security.protocol=SASL_SSL\nconsumer.fetch.max.bytes=1\n");
        RecourseConfig config = RecourseConfig.load(file, Map.of("RECOURSE_SASL_JAAS_CONFIG", "x required;",
                "RECOURSE_BOOTSTRAP_SERVERS", "k:9092", "PATH", "/bin"), Map.of("kafka.linger.ms", "5", "user.home", "/root"), Map.of(), KAFKA);

        assertThat(config.streamsProperties()).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.jaas.config", "x required;").containsEntry("linger.ms", "5")
                .containsEntry("bootstrap.servers", "k:9092").doesNotContainKey("user.home");
    }

    @Test
    void the_opt_out_accepts_unknown_keys_as_warnings() {
        RecourseConfig config = RecourseConfig.load(null, Map.of(), Map.of("recourse.future.setting", "1"),
                Map.of(ConfigSources.ALLOW_UNKNOWN, "true"), KAFKA);

        assertThat(config.warnings()).singleElement().asString().contains("recourse.future.setting");
        assertThat(config.get("recourse.future.setting")).isEqualTo("1");
    }

    @Test
    void each_value_knows_its_source_and_later_sources_win() throws Exception {
        Path file = Files.writeString(dir.resolve("r.properties"),
                "recourse.staleness.ms=1000\nrecourse.dispatch.timeout.ms=2000\nrecourse.outcome.timeout.ms=3000\n");
        RecourseConfig config = RecourseConfig.load(file,
                Map.of("RECOURSE_DISPATCH_TIMEOUT_MS", "2001", "RECOURSE_OUTCOME_TIMEOUT_MS", "3001", "RECOURSE_TOPICS_CREATE", "true"),
                Map.of("recourse.outcome.timeout.ms", "3002"), Map.of("recourse.metrics.port", "-1"), KAFKA);

        assertThat(config.source(RecourseConfig.PUNCTUATION_INTERVAL_MS)).isEqualTo(ConfigSources.Source.DEFAULT);
        assertThat(config.source(RecourseConfig.STALENESS_MS)).isEqualTo(ConfigSources.Source.FILE);
        assertThat(config.get(RecourseConfig.DISPATCH_TIMEOUT_MS)).isEqualTo("2001");
        assertThat(config.source(RecourseConfig.DISPATCH_TIMEOUT_MS)).isEqualTo(ConfigSources.Source.ENV);
        assertThat(config.get(RecourseConfig.OUTCOME_TIMEOUT_MS)).isEqualTo("3002");
        assertThat(config.source(RecourseConfig.OUTCOME_TIMEOUT_MS)).isEqualTo(ConfigSources.Source.SYSTEM_PROPERTY);
        assertThat(config.source(RecourseConfig.METRICS_PORT)).isEqualTo(ConfigSources.Source.FLAG);
        assertThat(config.createTopics()).isTrue();
    }

    @Test
    void keys_without_a_default_are_known_too() {
        assertThat(ConfigSources.knownKeys()).contains(RecourseConfig.TOPICS_CREATE, RecourseConfig.INSTANCE_NAME,
                ConfigSources.ALLOW_UNKNOWN, RecourseConfig.TOPIC_DLQ);
    }

    @Test
    void secrets_are_masked_for_display() {
        RecourseConfig config = RecourseConfig.of(Map.of("sasl.jaas.config", "user=\"a\" password=\"b\";",
                "ssl.truststore.password", "p", "recourse.metrics.host", "0.0.0.0"));

        assertThat(config.masked("sasl.jaas.config")).isEqualTo("[hidden]");
        assertThat(config.masked("ssl.truststore.password")).isEqualTo("[hidden]");
        assertThat(config.masked("recourse.metrics.host")).isEqualTo("0.0.0.0");
    }
}
