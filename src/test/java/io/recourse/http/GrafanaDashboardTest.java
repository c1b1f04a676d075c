package io.recourse.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Metrics;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;
import io.recourse.runtime.DeadLetterCounter;
import io.recourse.runtime.RecourseMetrics;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import io.recourse.topology.RecourseTopology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Grafana dashboard of {@code ops/grafana/dashboards/recourse.json} (provisioned by
 * docker-compose.yml) is valid JSON whose every panel queries metrics the instance's registry exports:
 * the Recourse meters once recorded, Kafka Streams' client metrics once bound; the few Kafka registers
 * only once partitions are assigned are {@link #AFTER_ASSIGNMENT} (the consumer lag is checked on a
 * running instance by {@code StatusPageIT}; the topic-level counters appear at Micrometer's next scan of
 * Kafka's metrics, once a minute).
 */
public class GrafanaDashboardTest {

    static final Path DASHBOARD = Path.of("ops", "grafana", "dashboards", "recourse.json");
    /** Metrics Kafka registers only once a task runs or a partition is fetched. */
    public static final Set<String> AFTER_ASSIGNMENT = Set.of("kafka_consumer_fetch_manager_records_lag_max",
            "kafka_stream_topic_records_consumed_total");
    private static final Pattern METRIC = Pattern.compile("\\b((?:recourse|kafka)_[a-z0-9_]+)\\b");

    @TempDir
    Path stateDir;

    /** Every metric name the dashboard's queries use. */
    static Set<String> dashboardMetrics() throws Exception {
        JsonNode d = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        Set<String> names = new TreeSet<>();
        for (JsonNode panel : d.get("panels")) {
            assertThat(panel.get("targets").size()).as("panel %s has a query", panel.get("title")).isPositive();
            for (JsonNode t : panel.get("targets")) {
                Matcher m = METRIC.matcher(t.get("expr").asText());
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        return names;
    }

    /** The sample names of a Prometheus text scrape. */
    public static Set<String> sampleNames(String scrape) {
        return scrape.lines().filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> l.split("[{ ]", 2)[0]).collect(Collectors.toSet());
    }

    @Test
    void every_panel_queries_metrics_the_registry_exports() throws Exception {
        JsonNode d = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        assertThat(d.get("uid").asText()).isEqualTo("recourse");
        assertThat(d.get("panels").size()).isGreaterThanOrEqualTo(8);

        try (RecourseMetrics metrics = new RecourseMetrics()) {
            Metrics.addRegistry(metrics.registry());
            try {
                RecourseMeters meters = metrics.meters();
                meters.classified(new Classification(Code.PROVIDER_OVERLOADED, Confidence.HIGH, "anthropic.overloaded.529.v1",
                        "provider-errors.v1", Scope.PROVIDER, null, null, false), new TurnContext("s1", 1, PromptOrigin.USER,
                        null, null, ProfileKind.CONCRETE, "claude-acp", "ap", "ep", "anthropic", "m", null, null, null, false));
                meters.policyDecision(RecourseMeters.Context.values()[0], Code.PROVIDER_OVERLOADED, "auto_retry");
                meters.staleEvidence(RecourseMeters.Context.values()[0]);
                meters.timerLag("routing", "retry_due", Duration.ofMillis(5));
                Metrics.counter(DeadLetterCounter.DLQ_RECORDS, "reason", "invalid_json", "topic", "recourse.agent-frames")
                        .increment();
                for (String state : RecourseHttp.HEALTH_STATES) {
                    metrics.registry().gauge(RecourseHttp.PROVIDER_HEALTH_SCOPES,
                            java.util.List.of(io.micrometer.core.instrument.Tag.of("state", state)), 0);
                }
                Properties props = new Properties();
                props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "recourse-dashboard-test",
                        StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1", StreamsConfig.STATE_DIR_CONFIG,
                        stateDir.toString()));
                try (KafkaStreams streams = new KafkaStreams(RecourseTopology.build(RecourseConfig.defaults(),
                        RecourseTopology.Options.with(meters)), props)) {
                    metrics.bind(streams);
                    Set<String> exported = sampleNames(metrics.scrape());
                    Set<String> missing = new TreeSet<>(dashboardMetrics());
                    missing.removeAll(exported);
                    missing.removeAll(AFTER_ASSIGNMENT);
                    assertThat(missing).as("dashboard metrics the registry does not export").isEmpty();
                }
            } finally {
                Metrics.removeRegistry(metrics.registry());
            }
        }
    }
}
