package io.recourse.kit;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.config.RecourseConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class TopicsTest {

    private final Topics topics = Topics.from(RecourseConfig.defaults());

    @Test
    public void the_registry_holds_every_design_topic_under_its_configured_name() {
        assertThat(topics.all()).extracting(Topic::name)
                .containsExactlyElementsOf(RecourseConfig.topicKeys().stream()
                        .map(k -> RecourseConfig.defaultValues().get(k)).toList());
    }

    @Test
    public void the_frames_topic_is_created_with_log_append_time() {
        assertThat(topics.agentFrames().topicConfigs()).containsEntry("message.timestamp.type", "LogAppendTime");
    }

    @Test
    public void latest_wins_topics_are_compacted_and_the_others_delete() {
        assertThat(topics.all()).filteredOn(t -> t.cleanupPolicy().equals("compact")).extracting(Topic::name)
                .containsExactlyInAnyOrder("recourse.route-config", "recourse.route-config.validated",
                        "recourse.kanban.recovery-state", "recourse.office.run-state", "recourse.office.provider-health",
                        "recourse.office.parked-runs");
    }

    @Test
    public void a_renamed_topic_keeps_its_role() {
        Topics renamed = Topics.from(RecourseConfig.of(Map.of(RecourseConfig.TOPIC_CLASSIFICATIONS, "analytics.classifications")));

        assertThat(renamed.classifications().name()).isEqualTo("analytics.classifications");
        assertThat(renamed.classifications().valueSerde()).isInstanceOf(AvroSerde.class);
    }
}
