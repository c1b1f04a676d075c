package io.recourse.kit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The dead-letter contract of DESIGN §3: a rejected record goes to {@code recourse.dlq} with its
 * original key and value bytes and the error headers below (UTF-8 text). The original record's
 * headers are not forwarded (DESIGN §3, §9: they may carry credentials, and only the original
 * bytes are kept as designed); {@value #SOURCE_HEADER_COUNT} says how many there were.
 * Codes are snake_case reasons: the ingress stage's {@code DlqReason} wire names
 * ({@code invalid_json}, {@code oversized}, {@code key_mismatch}, …) and the handlers'
 * {@code deserialization_failed}, {@code processing_failed} and {@code production_failed}.
 *
 * <p>A dead letter never exceeds what the producer and the DLQ topic accept: {@link #letter}
 * bounds the whole record (key, value, headers and Kafka's record and batch overhead) to the DLQ
 * topic's {@code max.message.bytes} ({@code recourse.dlq.max.record.bytes}, default
 * {@value #DEFAULT_MAX_RECORD_BYTES}, below the producer's default {@code max.request.size} of
 * 1 MiB). Over it, the record is <em>truncated</em> (DESIGN §3): the value keeps its head and
 * gets {@value #ORIGINAL_LENGTH} (bytes) and {@value #ORIGINAL_SHA256} (lower-case hex) of the
 * original; a key over {@value #MAX_KEY_BYTES} bytes likewise ({@value #ORIGINAL_KEY_LENGTH},
 * {@value #ORIGINAL_KEY_SHA256}); and {@value #TRUNCATED}{@code =true} marks it. The original
 * headers never travel on ({@link #headers}), so they cannot make a letter too large.
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

    /** Reason of a record the producer could not write ({@code runtime.DeadLetterProductionHandler}). */
    public static final String PRODUCTION_FAILED = "production_failed";

    public static final String ORIGINAL_LENGTH = "recourse.original.length";
    public static final String ORIGINAL_SHA256 = "recourse.original.sha256";
    public static final String ORIGINAL_KEY_LENGTH = "recourse.original.key.length";
    public static final String ORIGINAL_KEY_SHA256 = "recourse.original.key.sha256";
    public static final String TRUNCATED = "recourse.truncated";

    /** Default bound of a whole DLQ record in bytes: under the producer's default {@code max.request.size} (1 MiB). */
    public static final int DEFAULT_MAX_RECORD_BYTES = 1_000_000;
    /** Most bytes of a DLQ record's key; a longer key keeps its head. */
    public static final int MAX_KEY_BYTES = 1024;
    /**
     * An upper bound of what Kafka adds to one record in its own batch: the v2 batch header
     * (61 bytes) and the record's varints (length, attributes, timestamp and offset deltas, key
     * and value lengths, header count), with room to spare.
     */
    static final int RECORD_OVERHEAD = 128;
    /** What one header adds beyond its key and value bytes (two varints). */
    static final int HEADER_OVERHEAD = 10;

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

    /** A dead letter: the (possibly truncated) key and value and the headers to write them with. */
    public record Letter(byte[] key, byte[] value, Headers headers) {

        /** Whether the letter is marked {@value #TRUNCATED}. */
        public boolean truncated() {
            return headers.lastHeader(TRUNCATED) != null;
        }
    }

    /**
     * The dead letter of {@code key}/{@code value} (either may be {@code null}) with the error
     * headers of {@link #headers}, bounded to {@code maxRecordBytes} as the class doc describes.
     *
     * @param maxRecordBytes the bound of the whole record in bytes (at least 4096)
     */
    public static Letter letter(byte[] key, byte[] value, Headers original, String code, String message, String topic,
            int partition, long offset, int maxRecordBytes) {
        Headers h = headers(original, code, message, topic, partition, offset);
        if (size(key, value, h) <= maxRecordBytes) {
            return new Letter(key, value, h);
        }
        if (key != null && key.length > MAX_KEY_BYTES) {
            h.add(ORIGINAL_KEY_LENGTH, utf8(String.valueOf(key.length)));
            h.add(ORIGINAL_KEY_SHA256, utf8(sha256(key)));
            key = Arrays.copyOf(key, MAX_KEY_BYTES);
        }
        if (value != null) {
            h.add(ORIGINAL_LENGTH, utf8(String.valueOf(value.length)));
            h.add(ORIGINAL_SHA256, utf8(sha256(value)));
        }
        h.add(TRUNCATED, utf8("true"));
        if (value != null) {
            int room = maxRecordBytes - size(key, new byte[0], h);
            value = Arrays.copyOf(value, Math.max(0, Math.min(room, value.length)));
        }
        return new Letter(key, value, h);
    }

    /** {@link #letter} as a producer record on {@code dlqTopic}, for the exception handlers' dead-letter responses. */
    public static ProducerRecord<byte[], byte[]> record(String dlqTopic, byte[] key, byte[] value, Headers original,
            String code, String message, String topic, int partition, long offset, int maxRecordBytes) {
        Letter l = letter(key, value, original, code, message, topic, partition, offset, maxRecordBytes);
        return new ProducerRecord<>(dlqTopic, null, null, l.key(), l.value(), l.headers());
    }

    /** The bound of a DLQ record: the DLQ topic's {@code max.message.bytes} as Recourse creates it. */
    public static int maxRecordBytes(Topic<?, ?> dlq) {
        String v = dlq.topicConfigs().get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
        return v == null ? DEFAULT_MAX_RECORD_BYTES : Integer.parseInt(v);
    }

    /** An upper bound of the bytes a record of {@code key}, {@code value} and {@code headers} takes in a batch of its own. */
    static int size(byte[] key, byte[] value, Headers headers) {
        long n = RECORD_OVERHEAD + (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        for (Header x : headers) {
            n += HEADER_OVERHEAD + utf8(x.key()).length + (x.value() == null ? 0 : x.value().length);
        }
        return (int) Math.min(Integer.MAX_VALUE, n);
    }

    /** Lower-case hex SHA-256 of {@code bytes}. */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is a required JDK algorithm", e);
        }
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
