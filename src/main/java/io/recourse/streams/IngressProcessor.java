package io.recourse.streams;

import io.recourse.streams.FrameAdmission.FrameRejection;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingress processor (DESIGN §3): admits each record of the frames topic through
 * {@link FrameAdmission}, or turns it into an {@link Admission.Rejected} whose headers carry the
 * DLQ reason and source coordinates. Checks the size bound first (reason {@code oversized})
 * and rejects a missing value or a key that is not UTF-8 ({@code invalid_key}). Never throws on
 * bad input, so the stream thread keeps running.
 */
final class IngressProcessor extends ContextualProcessor<byte[], byte[], String, Admission> {

    private static final Logger LOG = LoggerFactory.getLogger(IngressProcessor.class);

    private final FrameAdmission admission;
    private final int maxFrameBytes;

    IngressProcessor(FrameAdmission admission, int maxFrameBytes) {
        this.admission = admission;
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        byte[] value = record.value();
        String key;
        try {
            key = record.key() == null ? null : strictUtf8(record.key());
        } catch (CharacterCodingException e) {
            reject(record, null, "invalid_key", "key is not UTF-8 text");
            return;
        }
        if (value == null) {
            reject(record, key, "invalid_json", "value is missing (null)");
            return;
        }
        if (value.length > maxFrameBytes) {
            reject(record, key, DeadLetters.FRAME_TOO_LARGE,
                    "frame of " + value.length + " bytes exceeds recourse.frame.max.bytes=" + maxFrameBytes);
            return;
        }
        try {
            context().forward(record.withKey(key).withValue(new Admission.Admitted(admission.admit(key, value))));
        } catch (FrameRejection e) {
            reject(record, key, e.code(), e.getMessage());
        }
    }

    private void reject(Record<byte[], byte[]> record, String key, String code, String message) {
        RecordMetadata meta = context().recordMetadata().orElse(null);
        String topic = meta == null ? null : meta.topic();
        int partition = meta == null ? -1 : meta.partition();
        long offset = meta == null ? -1 : meta.offset();
        LOG.debug("rejecting frame {}-{}@{}: {}", topic, partition, offset, code);
        context().forward(new Record<String, Admission>(key, new Admission.Rejected(record.key(), record.value()),
                record.timestamp(), DeadLetters.headers(record.headers(), code, message, topic, partition, offset)));
    }

    private static String strictUtf8(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
    }
}
