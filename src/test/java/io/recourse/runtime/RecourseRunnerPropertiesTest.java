package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.config.RecourseConfig;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/** The Streams properties the runner hands to Kafka Streams: fixed choices and overridable defaults. */
public class RecourseRunnerPropertiesTest {

    @Test
    public void tasksDoNotIdleOnOtherInputsByDefault() {
        Properties p = RecourseRunner.streamsProperties(RecourseConfig.defaults(), "localhost:9092");

        assertThat(p.get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo("-1");
    }

    @Test
    public void aConfiguredTaskIdleTimeWins() {
        RecourseConfig config = RecourseConfig.of(Map.of("max.task.idle.ms", "0"));

        Properties p = RecourseRunner.streamsProperties(config, "localhost:9092");

        assertThat(p.get(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG)).isEqualTo("0");
    }

    @Test
    public void deadLetterHandlersAreAlwaysInstalled() {
        RecourseConfig config = RecourseConfig.of(Map.of(
                StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, "com.example.Other"));

        Properties p = RecourseRunner.streamsProperties(config, "localhost:9092");

        assertThat(p.get(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG))
                .isEqualTo(DeadLetterDeserializationHandler.class.getName());
        assertThat(p.get(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG)).isEqualTo("localhost:9092");
    }

    @Test
    public void onAClusterTheInstanceNameGivesAStaticGroupInstanceId() {
        RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.BOOTSTRAP_SERVERS, "kafka:9092",
                RecourseConfig.INSTANCE_NAME, "node a/1"));

        Properties p = RecourseRunner.streamsProperties(config, "kafka:9092");

        assertThat(p.get("group.instance.id")).isEqualTo("recourse-node_a_1");
        assertThat(RecourseRunner.streamsProperties(RecourseConfig.of(Map.of(RecourseConfig.BOOTSTRAP_SERVERS, "kafka:9092")),
                "kafka:9092").get("group.instance.id")).asString().startsWith("recourse-").hasSizeGreaterThan("recourse-".length());
        assertThat(RecourseRunner.streamsProperties(RecourseConfig.of(Map.of(RecourseConfig.BOOTSTRAP_SERVERS, "kafka:9092",
                RecourseConfig.INSTANCE_NAME, "")), "kafka:9092")).doesNotContainKey("group.instance.id");
        assertThat(RecourseRunner.streamsProperties(RecourseConfig.defaults(), "localhost:9092"))
                .as("embedded: one instance, dynamic").doesNotContainKey("group.instance.id");
    }
}
