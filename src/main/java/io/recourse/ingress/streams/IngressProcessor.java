package io.recourse.ingress.streams;

import io.recourse.ingress.DlqReason;
import io.recourse.ingress.streams.FrameAdmission.FrameRejection;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingress processor (DESIGN §3): admits each record of the frames topic through
 * {@link FrameAdmission}, or turns it into an {@link Admission.Rejected} whose headers carry the
 * DLQ reason and source coordinates. A key that is not UTF-8 is rejected here
 * ({@code invalid_key}, the key kept as received); everything else is the admission's call.
 * Never throws on bad input, so the stream thread keeps running.
 */
public final class IngressProcessor extends ContextualProcessor<byte[], byte[], String, Admission> {

    private static final Logger LOG = LoggerFactory.getLogger(IngressProcessor.class);

    private final FrameAdmission admission;
    private final int dlqMaxRecordBytes;

    /** @param dlqMaxRecordBytes the bound of a dead letter ({@link DeadLetters#letter}) */
    public IngressProcessor(FrameAdmission admission, int dlqMaxRecordBytes) {
        this.admission = admission;
        this.dlqMaxRecordBytes = dlqMaxRecordBytes;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        byte[] value = record.value();
        String key;
        try {
            key = record.key() == null ? null : strictUtf8(record.key());
        } catch (CharacterCodingException e) {
            reject(record, null, DlqReason.INVALID_KEY.wire(), "key is not UTF-8 text");
            return;
        }
        try {
            // Input headers never travel on (DESIGN §9): they may carry credentials.
            context().forward(record.withKey(key).withValue(new Admission.Admitted(admission.admit(key, value)))
                    .withHeaders(new RecordHeaders()));
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
        DeadLetters.Letter letter = DeadLetters.letter(record.key(), record.value(), record.headers(), code, message, topic,
                partition, offset, dlqMaxRecordBytes);
        context().forward(new Record<String, Admission>(key, new Admission.Rejected(letter.key(), letter.value()),
                record.timestamp(), letter.headers()));
    }

    /** The key as text; malformed UTF-8 is an error, not a replacement character. */
    private static String strictUtf8(byte[] bytes) throws CharacterCodingException {
        // Keys are almost always ASCII, which decodes to the same chars in Latin-1 (a plain
        // copy); only other keys pay for a strict decoder.
        for (byte b : bytes) {
            if (b < 0) {
                return strictUtf8Decoder(bytes);
            }
        }
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static String strictUtf8Decoder(byte[] bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
    }
}
