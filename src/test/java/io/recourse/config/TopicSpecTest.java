package io.recourse.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.avro.RetryCommand;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicSpecTest {

    @Test
    void each_declaration_gives_the_config_key_and_the_default_name() {
        assertThat(TopicSpec.KANBAN_RETRY_COMMANDS.key()).isEqualTo("recourse.topic.kanban.retry-commands");
        assertThat(TopicSpec.KANBAN_RETRY_COMMANDS.defaultName()).isEqualTo("recourse.kanban.retry-commands");
        assertThat(RecourseConfig.TOPIC_KANBAN_RETRY_COMMANDS).isEqualTo(TopicSpec.KANBAN_RETRY_COMMANDS.key());
        assertThat(TopicSpec.KANBAN_RETRY_COMMANDS.valueType()).isEqualTo(RetryCommand.class);
    }

    @Test
    void the_configuration_knows_every_declared_topic_and_no_other() {
        assertThat(RecourseConfig.topicKeys()).containsExactlyElementsOf(TopicSpec.all().stream().map(TopicSpec::key).toList());
        assertThat(TopicSpec.all()).hasSize(18);
        for (TopicSpec<?, ?> spec : TopicSpec.all()) {
            assertThat(RecourseConfig.defaults().topicName(spec.key())).isEqualTo(spec.defaultName());
        }
    }

    @Test
    void only_the_frames_topic_asks_for_log_append_time_and_only_the_dlq_bounds_its_records() {
        RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.DLQ_MAX_RECORD_BYTES, "500000"));
        for (TopicSpec<?, ?> spec : TopicSpec.all()) {
            Map<String, String> configs = spec.topicConfigs(config);
            assertThat(configs.containsKey("message.timestamp.type")).as(spec.id()).isEqualTo(spec == TopicSpec.AGENT_FRAMES);
            assertThat(configs.containsKey("max.message.bytes")).as(spec.id()).isEqualTo(spec == TopicSpec.DLQ);
            assertThat(configs.get("cleanup.policy")).isIn("delete", "compact");
        }
        assertThat(TopicSpec.DLQ.topicConfigs(config)).containsEntry("max.message.bytes", "500000");
    }

    @Test
    void every_json_input_names_its_schema_and_key_and_the_outputs_do_not() {
        for (TopicSpec<?, ?> spec : TopicSpec.all()) {
            boolean in = spec.direction() == TopicSpec.Direction.IN;
            assertThat(spec.schemaFile().isPresent()).as(spec.id()).isEqualTo(in);
            assertThat(spec.keyFields().isPresent()).as(spec.id()).isEqualTo(in);
            spec.schemaFile().ifPresent(f -> assertThat(java.nio.file.Path.of("schemas", f)).exists());
        }
    }

    @Test
    void a_renamed_topic_keeps_its_declaration() {
        RecourseConfig config = RecourseConfig.of(Map.of(TopicSpec.DLQ.key(), "ops.dead-letters"));
        assertThat(TopicSpec.DLQ.name(config)).isEqualTo("ops.dead-letters");
        assertThat(TopicSpec.byKey("recourse.topic.dlq")).contains(TopicSpec.DLQ);
    }
}
