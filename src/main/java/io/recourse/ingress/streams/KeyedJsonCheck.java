package io.recourse.ingress.streams;

import io.recourse.ingress.DlqReason;
import io.recourse.ingress.InputBounds;
import io.recourse.kit.Admissions;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Function;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The check of a JSON input topic of an owner (DESIGN §2, §3, §6.3, §7.1): a record whose key is
 * null or longer than {@link InputBounds#MAX_KEY_BYTES} is rejected ({@code invalid_key}); the
 * parse step turns the value into the admitted value and the body's key (it throws
 * {@link Admissions.Rejection} with the DLQ reason on a bad record); a record key that is not the
 * body's key is rejected ({@code key_mismatch}). A producer's key is never trusted for
 * partitioning: the admitted record is keyed by its body.
 *
 * @param <V> the admitted value
 */
public final class KeyedJsonCheck<V> implements Admissions.Check<V> {

    /** The admitted value and the key it is re-keyed by. */
    public record Parsed<V>(String key, V value) {
    }

    private final Function<Record<byte[], byte[]>, Parsed<V>> parse;
    private final String mismatchMessage;

    /**
     * @param parse           throws {@link Admissions.Rejection} on a bad record
     * @param mismatchMessage the DLQ message of a {@code key_mismatch}
     */
    public KeyedJsonCheck(Function<Record<byte[], byte[]>, Parsed<V>> parse, String mismatchMessage) {
        this.parse = Objects.requireNonNull(parse, "parse");
        this.mismatchMessage = Objects.requireNonNull(mismatchMessage, "mismatchMessage");
    }

    @Override
    public Admissions.Verdict<V> check(Record<byte[], byte[]> record) {
        String keyProblem = InputBounds.keyProblem(record.key());
        if (keyProblem != null) {
            return new Admissions.Reject<>(null, DlqReason.INVALID_KEY.wire(), keyProblem);
        }
        Parsed<V> parsed;
        try {
            parsed = parse.apply(record);
        } catch (Admissions.Rejection e) {
            return new Admissions.Reject<>(null, e.code(), e.getMessage());
        }
        if (!parsed.key().equals(new String(record.key(), StandardCharsets.UTF_8))) {
            return new Admissions.Reject<>(null, DlqReason.KEY_MISMATCH.wire(), mismatchMessage);
        }
        return new Admissions.Admit<>(parsed.key(), parsed.value());
    }
}
