package io.recourse.runtime;

import io.recourse.evidence.Sanitizer;
import io.recourse.kit.DeadLetters;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams' {@code deserialization.exception.handler} (STYLE.md "Errors"): a record no deserializer
 * can read goes to the DLQ ({@code recourse.topic.dlq}) with its original bytes and reason
 * {@code deserialization_failed}, in the same transaction, and processing resumes. The frames
 * source reads raw bytes, so this guards the Avro-encoded internal topics.
 */
public final class DeadLetterDeserializationHandler extends DeadLetterHandler implements DeserializationExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterDeserializationHandler.class);

    @Override
    public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
        LOG.warn("dead-lettering unreadable record {}-{}@{} (processor {}): {}", record.topic(), record.partition(),
                record.offset(), context.processorNodeId(),
                exception.getClass().getName() + ": " + Sanitizer.sanitizeShort(exception.getMessage(), DeadLetters.MAX_MESSAGE_CHARS));
        return Response.resume(List.of(DeadLetters.record(dlqTopic(), record.key(), record.value(), record.headers(),
                DeadLetters.DESERIALIZATION_FAILED, exception.toString(), record.topic(), record.partition(), record.offset(),
                dlqMaxRecordBytes())));
    }
}
