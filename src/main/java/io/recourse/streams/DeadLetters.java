package io.recourse.streams;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The dead-letter contract of DESIGN §3: a rejected record goes to {@code recourse.dlq} with its
 * original key and value bytes and the error headers below (UTF-8 text). The original record's
 * headers are not forwarded (DESIGN §3, §9: they may carry credentials, and only the original
 * bytes are kept as designed); {@value #SOURCE_HEADER_COUNT} says how many there were.
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
    /** How many headers the original record had (they are dropped, never forwarded). */
    public static final String SOURCE_HEADER_COUNT = "recourse.source.header-count";

    /** Reason of a record an internal deserializer could not read. */
    public static final String DESERIALIZATION_FAILED = "deserialization_failed";
    /** Reason of a record whose processing threw. */
    public static final String PROCESSING_FAILED = "processing_failed";

    /** Error messages are bounded: they may quote input. */
    public static final int MAX_MESSAGE_CHARS = 512;

    private DeadLetters() {
    }

    /**
     * The DLQ headers of a record whose headers were {@code original} (may be {@code null}): the
     * error and source headers only. The original headers are dropped (they may carry secrets);
     * only their number is kept, unless {@code original} already is a set of DLQ headers (then
     * its count is kept and its error headers replaced).
     *
     * @param partition the source partition, or -1 when unknown
     * @param offset    the source offset, or -1 when unknown
     */
    public static Headers headers(Headers original, String code, String message, String topic, int partition, long offset) {
        Headers h = new RecordHeaders();
        String count = original == null ? null : header(original, SOURCE_HEADER_COUNT);
        if (count == null) {
            int n = 0;
            if (original != null) {
                for (var ignored : original) {
                    n++;
                }
            }
            count = String.valueOf(n);
        }
        h.add(SOURCE_HEADER_COUNT, utf8(count));
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
