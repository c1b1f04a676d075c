package io.recourse.ingress.streams;

import io.recourse.ingress.DlqReason;
import io.recourse.ingress.Frame;
import io.recourse.ingress.streams.FrameAdmission.FrameRejection;
import io.recourse.kit.Admissions;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The ingress check (DESIGN §3) of the {@code recourse-ingress} admission ({@link Admissions}):
 * admits each record of the frames topic through {@link FrameAdmission} under its key as text, or
 * rejects it with the DLQ reason. A key that is not UTF-8 is rejected here ({@code invalid_key},
 * the key kept as received); everything else is the admission's call.
 */
public final class FrameCheck implements Admissions.Check<Frame> {

    private final FrameAdmission admission;

    public FrameCheck(FrameAdmission admission) {
        this.admission = admission;
    }

    @Override
    public Admissions.Verdict<Frame> check(Record<byte[], byte[]> record) {
        String key;
        try {
            key = record.key() == null ? null : strictUtf8(record.key());
        } catch (CharacterCodingException e) {
            return new Admissions.Reject<>(null, DlqReason.INVALID_KEY.wire(), "key is not UTF-8 text");
        }
        try {
            return new Admissions.Admit<>(key, admission.admit(key, record.value()));
        } catch (FrameRejection e) {
            return new Admissions.Reject<>(key, e.code(), e.getMessage());
        }
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
