package io.recourse.kit;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.recourse.config.RecourseConfig;
import io.recourse.runtime.DeadLetterProductionHandler;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.junit.jupiter.api.Test;

/** A dead letter never exceeds its bound (DESIGN §3), and the production handler never fails the thread. */
public class DeadLetterBoundsTest {

    private static final int BOUND = DeadLetters.DEFAULT_MAX_RECORD_BYTES;

    @Test
    public void a_small_record_is_dead_lettered_whole_and_unmarked() {
        DeadLetters.Letter l = DeadLetters.letter(new byte[] {1}, new byte[] {2}, null, "c", "m", "t", 0, 1, BOUND);

        assertThat(l.value()).containsExactly(2);
        assertThat(l.truncated()).isFalse();
    }

    @Test
    public void a_record_over_the_bound_keeps_its_head_its_length_and_its_digest() throws Exception {
        byte[] value = new byte[1_048_480];
        Arrays.fill(value, (byte) 'a');
        value[0] = 'X';

        DeadLetters.Letter l = DeadLetters.letter("pp/1".getBytes(), value, new RecordHeaders(), "oversized", "too big",
                "recourse.agent-frames", 0, 7, BOUND);

        assertThat(DeadLetters.size(l.key(), l.value(), l.headers())).isLessThanOrEqualTo(BOUND);
        assertThat(l.value()[0]).isEqualTo((byte) 'X');
        assertThat(l.value().length).isGreaterThan(BOUND - 2_000);
        assertThat(l.truncated()).isTrue();
        assertThat(DeadLetters.header(l.headers(), DeadLetters.ORIGINAL_LENGTH)).isEqualTo("1048480");
        assertThat(DeadLetters.header(l.headers(), DeadLetters.ORIGINAL_SHA256))
                .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value)));
    }

    @Test
    public void a_huge_key_and_huge_original_headers_are_bounded_too() {
        byte[] key = new byte[700_000];
        RecordHeaders original = new RecordHeaders();
        original.add("h1", new byte[400_000]);
        original.add("h2", new byte[400_000]);

        DeadLetters.Letter l = DeadLetters.letter(key, new byte[700_000], original, "invalid_key", "m", "t", 0, 1, BOUND);

        assertThat(DeadLetters.size(l.key(), l.value(), l.headers())).isLessThanOrEqualTo(BOUND);
        assertThat(l.key()).hasSize(DeadLetters.MAX_KEY_BYTES);
        assertThat(DeadLetters.header(l.headers(), DeadLetters.ORIGINAL_KEY_LENGTH)).isEqualTo("700000");
        assertThat(l.headers().lastHeader("h1")).isNull();
        assertThat(l.headers().lastHeader("h2")).isNull();
        assertThat(DeadLetters.header(l.headers(), DeadLetters.SOURCE_HEADER_COUNT)).isEqualTo("2");
        assertThat(DeadLetters.header(l.headers(), DeadLetters.ERROR_CODE)).isEqualTo("invalid_key");
    }

    @Test
    public void a_record_the_producer_refuses_is_dead_lettered_truncated_and_processing_resumes() {
        DeadLetterProductionHandler handler = new DeadLetterProductionHandler();
        handler.configure(Map.of(RecourseConfig.TOPIC_DLQ, "ops.dlq", RecourseConfig.DLQ_MAX_RECORD_BYTES, "10000"));
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>("recourse.classifications", "s".getBytes(), new byte[50_000]);

        var response = handler.handleError(context(), out, new RecordTooLargeException("too large"));

        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.RESUME);
        ProducerRecord<byte[], byte[]> dead = response.deadLetterQueueRecords().get(0);
        assertThat(dead.topic()).isEqualTo("ops.dlq");
        assertThat(DeadLetters.size(dead.key(), dead.value(), dead.headers())).isLessThanOrEqualTo(10_000);
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE)).isEqualTo(DeadLetters.PRODUCTION_FAILED);
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.TRUNCATED)).isEqualTo("true");
    }

    @Test
    public void a_dead_letter_the_producer_refuses_is_dropped_and_counted() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Metrics.addRegistry(registry);
        try {
            DeadLetterProductionHandler handler = new DeadLetterProductionHandler();
            handler.configure(Map.of(RecourseConfig.TOPIC_DLQ, "ops.dlq"));

            var response = handler.handleError(context(), new ProducerRecord<>("ops.dlq", new byte[1], new byte[1]),
                    new RecordTooLargeException("too large"));

            assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.RESUME);
            assertThat(response.deadLetterQueueRecords()).isEmpty();
            assertThat(registry.get(DeadLetterProductionHandler.DROPPED).tag("reason", "record_too_large").counter().count())
                    .isEqualTo(1.0);
        } finally {
            Metrics.removeRegistry(registry);
        }
    }

    private static ErrorHandlerContext context() {
        return new ErrorHandlerContext() {
            @Override public String topic() { return "recourse.agent-frames"; }
            @Override public int partition() { return 0; }
            @Override public long offset() { return 5; }
            @Override public org.apache.kafka.common.header.Headers headers() { return new RecordHeaders(); }
            @Override public String processorNodeId() { return "p"; }
            @Override public org.apache.kafka.streams.processor.TaskId taskId() { return new org.apache.kafka.streams.processor.TaskId(0, 0); }
            @Override public long timestamp() { return 0; }
            @Override public byte[] sourceRawKey() { return new byte[0]; }
            @Override public byte[] sourceRawValue() { return new byte[0]; }
        };
    }
}
