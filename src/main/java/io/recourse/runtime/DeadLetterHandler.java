package io.recourse.runtime;

import io.recourse.config.RecourseConfig;
import io.recourse.kit.DeadLetters;
import java.util.Map;
import org.apache.kafka.common.Configurable;

/**
 * The common part of the Streams exception handlers that dead-letter a record (STYLE.md
 * "Errors", DESIGN §3): the DLQ topic, {@code recourse.topic.dlq} of the Streams configuration,
 * and the bound of a dead letter, {@code recourse.dlq.max.record.bytes}, or their defaults when
 * the configuration does not set them.
 */
public abstract class DeadLetterHandler implements Configurable {

    private String dlqTopic = RecourseConfig.defaultValues().get(RecourseConfig.TOPIC_DLQ);
    private int dlqMaxRecordBytes = DeadLetters.DEFAULT_MAX_RECORD_BYTES;

    @Override
    public void configure(Map<String, ?> configs) {
        Object topic = configs.get(RecourseConfig.TOPIC_DLQ);
        if (topic != null) {
            dlqTopic = topic.toString();
        }
        Object max = configs.get(RecourseConfig.DLQ_MAX_RECORD_BYTES);
        if (max != null) {
            dlqMaxRecordBytes = Integer.parseInt(max.toString());
        }
    }

    /** The bound of one dead letter in bytes ({@code recourse.dlq.max.record.bytes}). */
    int dlqMaxRecordBytes() {
        return dlqMaxRecordBytes;
    }

    /** The topic dead letters go to. */
    String dlqTopic() {
        return dlqTopic;
    }
}
