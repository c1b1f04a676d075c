package io.recourse.routing.streams;

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
 * Admits the JSON records of one routing input topic (DESIGN §7.1, §7.3): {@code parse} turns the
 * value into an admitted value and its key (the body's {@code workspace_id}, or the route
 * configuration's {@code dynamic_profile_id}); a producer's key is never trusted for partitioning
 * (DESIGN §2), but a null key or one over {@link InputBounds#MAX_KEY_BYTES} is rejected
 * ({@code invalid_key}), and a key that disagrees with the body is rejected ({@code key_mismatch}).
 * A rejection is forwarded as {@link RoutingAdmission.Rejected} with the DLQ error headers
 * (DESIGN §3). Never throws on bad input.
 *
 * @param <V> the admitted value
 */
public final class RoutingInputProcessor<V> extends ContextualProcessor<byte[], byte[], String, RoutingAdmission<V>> {

    private static final Logger LOG = LoggerFactory.getLogger(RoutingInputProcessor.class);

    /** The admitted value and the key it is re-keyed by. */
    record Parsed<V>(String key, V value) {
    }

    private final Function<Record<byte[], byte[]>, Parsed<V>> parse;
    private final int dlqMaxRecordBytes;

    /**
     * @param parse             throws {@link RoutingJson.Rejection} on a bad record
     * @param dlqMaxRecordBytes the bound of a dead letter ({@link DeadLetters#letter})
     */
    RoutingInputProcessor(Function<Record<byte[], byte[]>, Parsed<V>> parse, int dlqMaxRecordBytes) {
        this.parse = parse;
        this.dlqMaxRecordBytes = dlqMaxRecordBytes;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        String keyProblem = InputBounds.keyProblem(record.key());
        if (keyProblem != null) {
            reject(record, DlqReason.INVALID_KEY.wire(), keyProblem);
            return;
        }
        Parsed<V> parsed;
        try {
            parsed = parse.apply(record);
        } catch (RoutingJson.Rejection e) {
            reject(record, e.code(), e.getMessage());
            return;
        }
        if (!parsed.key().equals(new String(record.key(), StandardCharsets.UTF_8))) {
            reject(record, DlqReason.KEY_MISMATCH.wire(), "record key is not the body's id");
            return;
        }
        // Input headers never travel on (DESIGN §9): they may carry credentials (an authorization header).
        context().forward(record.withKey(parsed.key()).withValue(new RoutingAdmission.Admitted<>(parsed.value()))
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
        context().forward(new Record<String, RoutingAdmission<V>>(null,
                new RoutingAdmission.Rejected<>(letter.key(), letter.value()), record.timestamp(), letter.headers()));
    }
}
