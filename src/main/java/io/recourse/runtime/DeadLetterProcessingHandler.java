package io.recourse.runtime;

import io.recourse.evidence.Sanitizer;
import io.recourse.kit.DeadLetters;
import java.util.List;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams' {@code processing.exception.handler} (STYLE.md "Errors"): when a processor throws on a
 * record, the record's original source bytes go to the DLQ with reason {@code processing_failed}
 * and the exception as message, and processing resumes — bad input never stops the stream thread
 * (DESIGN §3). Logged at error: a throwing processor is a bug to fix.
 */
public final class DeadLetterProcessingHandler extends DeadLetterHandler implements ProcessingExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterProcessingHandler.class);

    @Override
    public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
        // The exception's message may quote input: the log gets it sanitized (DESIGN §9), the stack at debug.
        LOG.error("dead-lettering record {}-{}@{}: processor {} threw {}: {}", context.topic(), context.partition(),
                context.offset(), context.processorNodeId(), exception.getClass().getName(),
                Sanitizer.sanitizeShort(exception.getMessage(), DeadLetters.MAX_MESSAGE_CHARS));
        LOG.debug("stack of the dead-lettered record's exception", exception);
        return Response.resume(List.of(DeadLetters.record(dlqTopic(), context.sourceRawKey(), context.sourceRawValue(),
                context.headers(), DeadLetters.PROCESSING_FAILED, exception.toString(), context.topic(),
                context.partition(), context.offset(), dlqMaxRecordBytes())));
    }
}
