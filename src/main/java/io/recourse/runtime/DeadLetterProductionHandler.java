package io.recourse.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.recourse.kit.DeadLetters;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams' {@code production.exception.handler} (STYLE.md "Errors", DESIGN §3): what the producer
 * still cannot write — a {@link RecordTooLargeException} for an output, changelog or repartition
 * record, a serializer that throws — never stops the stream thread. The record is dead-lettered
 * ({@link DeadLetters#letter}, so truncated to what the DLQ accepts) with reason
 * {@value DeadLetters#PRODUCTION_FAILED}; a record bound for the DLQ itself is dropped and counted
 * in {@value #DROPPED} (tag {@code reason}: {@code record_too_large} or {@code other}). Retriable
 * errors are retried, as Streams would. Fatal producer errors (fencing, authorization) never
 * reach a production handler: Streams handles them itself.
 */
public final class DeadLetterProductionHandler extends DeadLetterHandler implements ProductionExceptionHandler {

    /** Micrometer name of the counter of records neither written nor dead-lettered. */
    public static final String DROPPED = "recourse.dead.letters.dropped";

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterProductionHandler.class);

    @Override
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
        if (exception instanceof RetriableException) {
            return Response.retry();
        }
        if (dlqTopic().equals(record.topic())) {
            LOG.error("dropping a dead letter the producer refused (source {}-{}@{}): {}", context.topic(),
                    context.partition(), context.offset(), exception.toString());
            dropped(exception).increment();
            return Response.resume();
        }
        LOG.error("dead-lettering a record for {} the producer refused (source {}-{}@{}, processor {}): {}",
                record.topic(), context.topic(), context.partition(), context.offset(), context.processorNodeId(),
                exception.toString());
        return Response.resume(List.of(DeadLetters.record(dlqTopic(), record.key(), record.value(), record.headers(),
                DeadLetters.PRODUCTION_FAILED, "writing to " + record.topic() + " failed: " + exception,
                context.topic(), context.partition(), context.offset(), dlqMaxRecordBytes())));
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record, Exception exception,
                                             SerializationExceptionOrigin origin) {
        LOG.error("dead-lettering the source record of an output for {} whose {} did not serialize (source {}-{}@{})",
                record.topic(), origin, context.topic(), context.partition(), context.offset(), exception);
        return Response.resume(List.of(DeadLetters.record(dlqTopic(), context.sourceRawKey(), context.sourceRawValue(),
                context.headers(), DeadLetters.PRODUCTION_FAILED,
                "serializing the " + origin + " for " + record.topic() + " failed: " + exception,
                context.topic(), context.partition(), context.offset(), dlqMaxRecordBytes())));
    }

    private static Counter dropped(Exception e) {
        return Metrics.counter(DROPPED, "reason", e instanceof RecordTooLargeException ? "record_too_large" : "other");
    }
}
