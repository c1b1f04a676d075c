package io.recourse.interactive.streams;

import io.recourse.ingress.DlqReason;
import io.recourse.ingress.InputBounds;
import io.recourse.ingress.streams.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admits the JSON records of {@code recourse.session-controls} / {@code recourse.kanban.dispatch-acks}
 * (DESIGN §6.3, §6.4): parses the value with {@code parse}, re-keys it by its body's
 * {@code session_id} (a producer's key is never trusted for partitioning, DESIGN §2) and forwards
 * the Avro value; a record whose key is null or longer than {@link InputBounds#MAX_KEY_BYTES}
 * ({@code invalid_key}), that does not parse, or whose key is not its body's
 * {@code session_id} ({@code key_mismatch}) is forwarded as {@link InteractiveAdmission.Rejected}
 * with the DLQ error headers. Never throws on bad input, so the stream thread keeps running.
 *
 * @param <D> the domain value (SessionControl, KanbanDispatchAck)
 * @param <A> its Avro value for the repartition topic
 */
public final class JsonInputProcessor<D, A> extends ContextualProcessor<byte[], byte[], String, InteractiveAdmission<A>> {

    private static final Logger LOG = LoggerFactory.getLogger(JsonInputProcessor.class);
    /** DLQ reason: the record key is not the body's {@code session_id}. */
    public static final String KEY_MISMATCH = "key_mismatch";

    private final Function<byte[], D> parse;
    private final Function<D, String> sessionId;
    private final Function<D, A> toAvro;
    private final int dlqMaxRecordBytes;

    /** @param dlqMaxRecordBytes the bound of a dead letter ({@link DeadLetters#letter}) */
    public JsonInputProcessor(Function<byte[], D> parse, Function<D, String> sessionId, Function<D, A> toAvro,
                       int dlqMaxRecordBytes) {
        this.parse = parse;
        this.sessionId = sessionId;
        this.toAvro = toAvro;
        this.dlqMaxRecordBytes = dlqMaxRecordBytes;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        String keyProblem = InputBounds.keyProblem(record.key());
        if (keyProblem != null) {
            reject(record, DlqReason.INVALID_KEY.wire(), keyProblem);
            return;
        }
        D value;
        try {
            value = parse.apply(record.value());
        } catch (InteractiveJson.InputRejection e) {
            reject(record, e.code(), e.getMessage());
            return;
        }
        String session = sessionId.apply(value);
        if (!session.equals(new String(record.key(), StandardCharsets.UTF_8))) {
            reject(record, KEY_MISMATCH, "record key is not the body's session_id");
            return;
        }
        // Input headers never travel on (DESIGN §9): they may carry credentials (an authorization header).
        context().forward(record.withKey(session).withValue(new InteractiveAdmission.Admitted<>(toAvro.apply(value)))
                .withHeaders(new RecordHeaders()));
    }

    private void reject(Record<byte[], byte[]> record, String code, String message) {
        RecordMetadata meta = context().recordMetadata().orElse(null);
        String topic = meta == null ? null : meta.topic();
        int partition = meta == null ? -1 : meta.partition();
        long offset = meta == null ? -1 : meta.offset();
        LOG.debug("dead-lettering {}-{}@{}: {}", topic, partition, offset, code);
        DeadLetters.Letter letter = DeadLetters.letter(record.key(), record.value(), record.headers(), code, message, topic,
                partition, offset, dlqMaxRecordBytes);
        context().forward(new Record<String, InteractiveAdmission<A>>(null,
                new InteractiveAdmission.Rejected<>(letter.key(), letter.value()), record.timestamp(), letter.headers()));
    }
}
