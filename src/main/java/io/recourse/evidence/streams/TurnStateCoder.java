package io.recourse.evidence.streams;

import io.recourse.avro.TurnEffectMark;
import io.recourse.avro.TurnSignalRef;
import io.recourse.avro.TurnStateValue;
import io.recourse.avro.TurnTerminal;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.apache.avro.io.Encoder;

/**
 * Hand-written Avro binary body of a {@link TurnStateValue} (schema {@code schemas/TurnStateValue.avsc}):
 * the same {@link Encoder} calls, in the same order, as Avro's {@code SpecificDatumWriter} makes for
 * it — so the bytes are identical — without its per-field schema walk, union resolution and
 * logical-type conversion lookups, which were most of the turn store's encode cost. Avro's
 * generated custom coders would do the same, but the compiler does not generate them for schemas
 * with logical types ({@code timestamp-millis}).
 *
 * <p>Must follow the schema field by field: {@code TurnStateCoderProperties} compares its bytes
 * with the generic writer's for generated values, and {@link AvroSerde} falls back to nothing — a
 * schema change without a matching change here fails those tests.
 *
 * @throws NullPointerException (from {@link #write}) when a non-nullable field is {@code null}, as
 *                              the generic writer does
 */
public final class TurnStateCoder {

    private TurnStateCoder() {
    }

    /** Writes the binary body of {@code v} (no single-object header) to {@code out}. */
    static void write(TurnStateValue v, Encoder out) throws IOException {
        out.writeString(v.getSessionId());
        out.writeInt(v.getPromptGeneration());
        nullableString(v.getPromptOrigin(), out);
        Integer retryOf = v.getRetryOfGeneration();
        if (retryOf == null) {
            nil(out);
        } else {
            out.writeIndex(1);
            out.writeInt(retryOf);
        }
        nullableString(v.getCommandId(), out);
        nullableString(v.getProfileKind(), out);
        nullableString(v.getAgentType(), out);
        nullableString(v.getAgentProfileId(), out);
        nullableString(v.getExecutionProfileId(), out);
        nullableString(v.getProviderId(), out);
        nullableString(v.getModelId(), out);
        nullableString(v.getRunId(), out);
        nullableString(v.getWorkspaceId(), out);
        nullableString(v.getTaskId(), out);
        out.writeBoolean(v.getResumeGuarantee());
        nullableLong(v.getOriginSeq(), out);
        out.writeLong(millis(v.getFirstAppendAt()));
        out.writeLong(millis(v.getLastAppendAt()));
        out.writeBoolean(v.getStarted());
        out.writeBoolean(v.getProgressed());
        nullableLong(v.getPromptRequestSeq(), out);
        nullableString(v.getPromptRequestId(), out);
        out.writeLong(v.getMinMessageSeq());
        out.writeLong(v.getMinThoughtSeq());
        out.writeLong(v.getMinToolSeq());
        List<TurnEffectMark> effects = v.getEffects();
        out.writeArrayStart();
        out.setItemCount(effects.size());
        for (TurnEffectMark e : effects) {
            out.startItem();
            out.writeLong(e.getSeq());
            out.writeString(e.getKind());
            out.writeLong(millis(e.getOccurredAt()));
            nullableString(e.getPhase(), out);
            nullableString(e.getText(), out);
        }
        out.writeArrayEnd();
        out.writeInt(v.getEffectsEvicted());
        out.writeLong(v.getMarkerSeq());
        List<TurnSignalRef> kept = v.getKept();
        out.writeArrayStart();
        out.setItemCount(kept.size());
        for (TurnSignalRef r : kept) {
            out.startItem();
            out.writeLong(r.getSeq());
            out.writeInt(r.getRank());
            out.writeInt(r.getBytes());
        }
        out.writeArrayEnd();
        out.writeInt(v.getSignalsSeen());
        TurnTerminal t = v.getTerminal();
        if (t == null) {
            nil(out);
        } else {
            out.writeIndex(1);
            out.writeLong(t.getSeq());
            out.writeLong(millis(t.getOccurredAt()));
            out.writeLong(millis(t.getAppendedAt()));
            out.writeString(t.getSource());
            nullableString(t.getPhase(), out);
            nullableString(t.getStopReason(), out);
            out.writeBoolean(t.getLaunch());
        }
        nullableString(v.getClosed(), out);
        Instant closedAt = v.getClosedAt();
        if (closedAt == null) {
            nil(out);
        } else {
            out.writeIndex(1);
            out.writeLong(millis(closedAt));
        }
        out.writeInt(v.getLateAfterClose());
    }

    private static void nil(Encoder out) throws IOException {
        out.writeIndex(0);
        out.writeNull();
    }

    private static void nullableString(String s, Encoder out) throws IOException {
        if (s == null) {
            nil(out);
        } else {
            out.writeIndex(1);
            out.writeString(s);
        }
    }

    private static void nullableLong(Long l, Encoder out) throws IOException {
        if (l == null) {
            nil(out);
        } else {
            out.writeIndex(1);
            out.writeLong(l);
        }
    }

    /** {@code timestamp-millis}: Avro's {@code TimestampMillisConversion.toLong}. */
    private static long millis(Instant i) {
        return i.toEpochMilli();
    }
}
