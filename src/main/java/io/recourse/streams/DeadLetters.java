package io.recourse.streams;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The dead-letter contract of DESIGN §3: a rejected record goes to {@code recourse.dlq} with its
 * original key and value bytes, its original headers, and the error headers below (UTF-8 text).
 * Codes are snake_case reasons: the ingress stage's {@code DlqReason} wire names
 * ({@code invalid_json}, {@code oversized}, {@code key_mismatch}, …) and the handlers'
 * {@code deserialization_failed} and {@code processing_failed}.
 */
public final class DeadLetters {

    public static final String ERROR_CODE = "recourse.error.code";
    public static final String ERROR_MESSAGE = "recourse.error.message";
    public static final String SOURCE_TOPIC = "recourse.source.topic";
    public static final String SOURCE_PARTITION = "recourse.source.partition";
    public static final String SOURCE_OFFSET = "recourse.source.offset";

    /** Reason of a record an internal deserializer could not read. */
    public static final String DESERIALIZATION_FAILED = "deserialization_failed";
    /** Reason of a record whose processing threw. */
    public static final String PROCESSING_FAILED = "processing_failed";

    /** Error messages are bounded: they may quote input. */
    public static final int MAX_MESSAGE_CHARS = 512;

    private DeadLetters() {
    }

    /**
     * A copy of {@code original} (may be {@code null}) with the error headers set, replacing any
     * earlier {@code recourse.error.*}/{@code recourse.source.*} headers.
     *
     * @param partition the source partition, or -1 when unknown
     * @param offset    the source offset, or -1 when unknown
     */
    public static Headers headers(Headers original, String code, String message, String topic, int partition, long offset) {
        Headers h = new RecordHeaders(original == null ? new org.apache.kafka.common.header.Header[0] : original.toArray());
        for (String name : new String[] {ERROR_CODE, ERROR_MESSAGE, SOURCE_TOPIC, SOURCE_PARTITION, SOURCE_OFFSET}) {
            h.remove(name);
        }
        h.add(ERROR_CODE, utf8(code));
        h.add(ERROR_MESSAGE, utf8(bounded(message)));
        h.add(SOURCE_TOPIC, utf8(topic == null ? "" : topic));
        h.add(SOURCE_PARTITION, utf8(String.valueOf(partition)));
        h.add(SOURCE_OFFSET, utf8(String.valueOf(offset)));
        return h;
    }

    /** A ready DLQ producer record, for the exception handlers' dead-letter responses. */
    public static ProducerRecord<byte[], byte[]> record(String dlqTopic, byte[] key, byte[] value, Headers original,
            String code, String message, String topic, int partition, long offset) {
        return new ProducerRecord<>(dlqTopic, null, null, key, value,
                headers(original, code, message, topic, partition, offset));
    }

    /** The header's value as text, or {@code null} when absent. */
    public static String header(Headers headers, String name) {
        var h = headers.lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    static String bounded(String message) {
        String m = message == null ? "" : message;
        return m.length() <= MAX_MESSAGE_CHARS ? m : m.substring(0, MAX_MESSAGE_CHARS - 1) + "…";
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
