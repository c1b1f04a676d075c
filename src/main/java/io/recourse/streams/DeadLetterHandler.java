package io.recourse.streams;

import io.recourse.runtime.RecourseConfig;
import java.util.Map;
import org.apache.kafka.common.Configurable;

/**
 * The common part of the Streams exception handlers that dead-letter a record (STYLE.md
 * "Errors", DESIGN §3): the DLQ topic, {@code recourse.topic.dlq} of the Streams configuration,
 * or its default when the configuration does not set it.
 */
abstract class DeadLetterHandler implements Configurable {

    private String dlqTopic = RecourseConfig.defaultValues().get(RecourseConfig.TOPIC_DLQ);

    @Override
    public void configure(Map<String, ?> configs) {
        Object topic = configs.get(RecourseConfig.TOPIC_DLQ);
        if (topic != null) {
            dlqTopic = topic.toString();
        }
    }

    /** The topic dead letters go to. */
    String dlqTopic() {
        return dlqTopic;
    }
}
