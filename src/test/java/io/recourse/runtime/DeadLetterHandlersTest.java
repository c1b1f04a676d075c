package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.config.RecourseConfig;
import io.recourse.kit.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

public class DeadLetterHandlersTest {

    private static final byte[] KEY = "k".getBytes(StandardCharsets.UTF_8);
    private static final byte[] VALUE = "v".getBytes(StandardCharsets.UTF_8);

    @Test
    public void an_unreadable_record_is_dead_lettered_to_the_configured_topic_and_processing_resumes() {
        DeadLetterDeserializationHandler handler = new DeadLetterDeserializationHandler();
        handler.configure(Map.of(RecourseConfig.TOPIC_DLQ, "ops.dlq"));
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("internal-repartition", 3, 17L, KEY, VALUE);

        var response = handler.handleError(context(), record, new SerializationException("bad fingerprint"));

        assertThat(response.result()).isEqualTo(DeserializationExceptionHandler.Result.RESUME);
        ProducerRecord<byte[], byte[]> dead = response.deadLetterQueueRecords().get(0);
        assertThat(dead.topic()).isEqualTo("ops.dlq");
        assertThat(dead.key()).isEqualTo(KEY);
        assertThat(dead.value()).isEqualTo(VALUE);
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE)).isEqualTo(DeadLetters.DESERIALIZATION_FAILED);
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.SOURCE_TOPIC)).isEqualTo("internal-repartition");
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.SOURCE_PARTITION)).isEqualTo("3");
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.SOURCE_OFFSET)).isEqualTo("17");
    }

    @Test
    public void a_record_whose_processing_throws_is_dead_lettered_with_its_source_bytes_and_processing_resumes() {
        DeadLetterProcessingHandler handler = new DeadLetterProcessingHandler();
        handler.configure(Map.of());

        var response = handler.handleError(context(), new Record<>("typed", 1, 0L), new IllegalStateException("bug"));

        assertThat(response.result()).isEqualTo(ProcessingExceptionHandler.Result.RESUME);
        ProducerRecord<byte[], byte[]> dead = response.deadLetterQueueRecords().get(0);
        assertThat(dead.topic()).isEqualTo("recourse.dlq");
        assertThat(dead.key()).isEqualTo(KEY);
        assertThat(dead.value()).isEqualTo(VALUE);
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE)).isEqualTo(DeadLetters.PROCESSING_FAILED);
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_MESSAGE)).contains("IllegalStateException", "bug");
    }

    @Test
    public void a_long_error_message_is_bounded() {
        Headers h = DeadLetters.headers(null, "c", "x".repeat(10_000), "t", 0, 0);

        assertThat(DeadLetters.header(h, DeadLetters.ERROR_MESSAGE)).hasSize(DeadLetters.MAX_MESSAGE_CHARS);
    }

    private static ErrorHandlerContext context() {
        return new ErrorHandlerContext() {
            public String topic() { return "recourse.agent-frames"; }
            public int partition() { return 2; }
            public long offset() { return 9; }
            public Headers headers() { return new RecordHeaders(); }
            public String processorNodeId() { return "recourse-ingress"; }
            public TaskId taskId() { return new TaskId(0, 2); }
            public long timestamp() { return 0; }
            public byte[] sourceRawKey() { return KEY; }
            public byte[] sourceRawValue() { return VALUE; }
        };
    }
}
