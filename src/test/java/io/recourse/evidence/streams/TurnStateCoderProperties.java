package io.recourse.evidence.streams;

import static io.recourse.kit.AvroConversions.lower;
import static io.recourse.kit.AvroConversions.wire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import io.recourse.avro.TurnEffectMark;
import io.recourse.avro.TurnSignalRef;
import io.recourse.avro.TurnStateValue;
import io.recourse.avro.TurnTerminal;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnState;
import io.recourse.evidence.TurnState.ClosedMarker;
import io.recourse.evidence.TurnState.EffectKind;
import io.recourse.evidence.TurnState.EffectMark;
import io.recourse.evidence.TurnState.SignalRef;
import io.recourse.evidence.TurnState.Terminal;
import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Phase;
import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;
import io.recourse.kit.AvroSerde;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;

/**
 * The turn store's faster encode path writes the very bytes the generic Avro path wrote:
 * {@link TurnStateCoder} and {@link AvroSerde}'s reused buffers against Avro's own
 * {@link BinaryMessageEncoder} (single-object encoding, current schema), the builder-free
 * {@link TurnStateMapping#toAvro} against the builder form, and a store round trip gives
 * {@link TurnStateMapping#stored}.
 */
public class TurnStateCoderProperties {

    private static final long SEED = 0x7E57_C0DE_0008L;
    private static final AvroSerde<TurnStateValue> FAST = AvroSerde.of(TurnStateValue.class, TurnStateCoder::write);
    private static final AvroSerde<TurnStateValue> GENERIC = AvroSerde.of(TurnStateValue.class);
    private static final BinaryMessageEncoder<TurnStateValue> AVRO =
            new BinaryMessageEncoder<>(SpecificData.getForClass(TurnStateValue.class), TurnStateValue.getClassSchema());

    private static final String[] STRINGS = {"", "a", "s-1/2", "anthropic", "gpt-5.5", "é😀\u0000İ", "x".repeat(63),
        "y".repeat(64), "z".repeat(300), "Selected model is at capacity. Please try a different model."};

    private static QuickTheory theory() {
        return qt().withFixedSeed(SEED).withExamples(2000);
    }

    @Test
    public void the_hand_written_coder_writes_the_bytes_of_avros_generic_writer() {
        theory().forAll(longs().all()).checkAssert(seed -> {
            TurnStateValue v = TurnStateMapping.toAvro(state(new Random(seed)));

            assertThat(FAST.encode(v)).as("seed %d", seed).isEqualTo(avro(v));
        });
    }

    @Test
    public void the_generic_serde_with_reused_buffers_writes_the_bytes_of_avros_message_encoder() {
        theory().forAll(longs().all()).checkAssert(seed -> {
            TurnStateValue v = TurnStateMapping.toAvro(state(new Random(seed)));

            assertThat(GENERIC.encode(v)).as("seed %d", seed).isEqualTo(avro(v));
        });
    }

    @Test
    public void the_builder_free_mapping_gives_the_builder_built_record() {
        theory().forAll(longs().all()).checkAssert(seed -> {
            TurnState s = state(new Random(seed));

            assertThat(TurnStateMapping.toAvro(s)).as("seed %d", seed).isEqualTo(builderForm(s));
        });
    }

    @Test
    public void a_store_round_trip_gives_the_stored_form_of_the_state() {
        theory().forAll(longs().all()).checkAssert(seed -> {
            TurnState s = state(new Random(seed));

            TurnState back = TurnStateMapping.fromAvro(FAST.decode(FAST.encode(TurnStateMapping.toAvro(s))));

            assertThat(back).as("seed %d", seed).isEqualTo(TurnStateMapping.stored(s));
        });
    }

    @Test
    public void the_stored_form_of_a_millisecond_state_is_the_state_itself() {
        theory().forAll(longs().all()).checkAssert(seed -> {
            TurnState s = TurnStateMapping.stored(state(new Random(seed)));

            assertThat(TurnStateMapping.stored(s)).as("seed %d", seed).isSameAs(s);
        });
    }

    private static byte[] avro(TurnStateValue v) {
        try {
            ByteBuffer b = AVRO.encode(v);
            byte[] out = new byte[b.remaining()];
            b.get(out);
            return out;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ generated states

    private static String string(Random r, boolean nullable) {
        if (nullable && r.nextInt(3) == 0) {
            return null;
        }
        return STRINGS[r.nextInt(STRINGS.length)];
    }

    private static <E extends Enum<E>> E pick(Random r, Class<E> type, boolean nullable) {
        E[] values = type.getEnumConstants();
        if (nullable && r.nextInt(3) == 0) {
            return null;
        }
        return values[r.nextInt(values.length)];
    }

    private static long seq(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> TurnState.NONE;
            case 1 -> r.nextInt(64);
            case 2 -> -r.nextInt(1000);
            case 3 -> Long.MIN_VALUE;
            default -> r.nextLong();
        };
    }

    private static Instant instant(Random r) {
        long second = r.nextLong(-10_000_000_000L, 10_000_000_000L);
        int nanos = switch (r.nextInt(3)) {
            case 0 -> 0;
            case 1 -> r.nextInt(1000) * 1_000_000;
            default -> r.nextInt(1_000_000_000);
        };
        return Instant.ofEpochSecond(second, nanos);
    }

    private static int integer(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> 0;
            case 1 -> r.nextInt(200);
            case 2 -> Integer.MIN_VALUE;
            default -> r.nextInt();
        };
    }

    public static TurnState state(Random r) {
        TurnContext c = new TurnContext(string(r, false), integer(r), pick(r, PromptOrigin.class, true),
                r.nextBoolean() ? null : integer(r), string(r, true), pick(r, ProfileKind.class, true), string(r, true),
                string(r, true), string(r, true), string(r, true), string(r, true), string(r, true), string(r, true),
                string(r, true), r.nextBoolean());
        List<EffectMark> effects = new ArrayList<>();
        for (int i = r.nextInt(4) == 0 ? 0 : r.nextInt(1, 70); i > 0; i--) {
            effects.add(new EffectMark(seq(r), pick(r, EffectKind.class, false), instant(r), pick(r, Phase.class, true),
                    string(r, true)));
        }
        List<SignalRef> kept = new ArrayList<>();
        for (int i = r.nextInt(4) == 0 ? 0 : r.nextInt(1, 70); i > 0; i--) {
            kept.add(new SignalRef(seq(r), integer(r), integer(r)));
        }
        Terminal terminal = r.nextBoolean() ? null : new Terminal(seq(r), instant(r), instant(r),
                pick(r, FrameSource.class, false), pick(r, Phase.class, true), string(r, true), r.nextBoolean());
        return new TurnState(c, r.nextBoolean() ? null : seq(r), instant(r), instant(r), r.nextBoolean(), r.nextBoolean(),
                r.nextBoolean() ? null : seq(r), string(r, true), seq(r), seq(r), seq(r), effects, integer(r), seq(r), kept,
                integer(r), terminal, pick(r, ClosedMarker.class, true), r.nextBoolean() ? null : instant(r), integer(r));
    }

    /** {@link TurnStateMapping#toAvro} as it was, through the generated builders (the reference). */
    public static TurnStateValue builderForm(TurnState s) {
        TurnContext c = s.context();
        Terminal t = s.terminal();
        return TurnStateValue.newBuilder()
                .setSessionId(c.sessionId())
                .setPromptGeneration(c.promptGeneration())
                .setPromptOrigin(wire(c.promptOrigin()))
                .setRetryOfGeneration(c.retryOfGeneration())
                .setCommandId(c.commandId())
                .setProfileKind(wire(c.profileKind()))
                .setAgentType(c.agentType())
                .setAgentProfileId(c.agentProfileId())
                .setExecutionProfileId(c.executionProfileId())
                .setProviderId(c.providerId())
                .setModelId(c.modelId())
                .setRunId(c.runId())
                .setWorkspaceId(c.workspaceId())
                .setTaskId(c.taskId())
                .setResumeGuarantee(c.resumeGuarantee())
                .setOriginSeq(s.originSeq())
                .setFirstAppendAt(s.firstAppendAt())
                .setLastAppendAt(s.lastAppendAt())
                .setStarted(s.started())
                .setProgressed(s.progressed())
                .setPromptRequestSeq(s.promptRequestSeq())
                .setPromptRequestId(s.promptRequestId())
                .setMinMessageSeq(s.minMessageSeq())
                .setMinThoughtSeq(s.minThoughtSeq())
                .setMinToolSeq(s.minToolSeq())
                .setEffects(s.effects().stream().map(e -> TurnEffectMark.newBuilder()
                        .setSeq(e.seq())
                        .setKind(lower(e.kind()))
                        .setOccurredAt(e.occurredAt())
                        .setPhase(wire(e.phase()))
                        .setText(e.text())
                        .build()).toList())
                .setEffectsEvicted(s.effectsEvicted())
                .setMarkerSeq(s.markerSeq())
                .setKept(s.kept().stream().map(r -> TurnSignalRef.newBuilder()
                        .setSeq(r.seq()).setRank(r.rank()).setBytes(r.bytes()).build()).toList())
                .setSignalsSeen(s.signalsSeen())
                .setTerminal(t == null ? null : TurnTerminal.newBuilder()
                        .setSeq(t.seq())
                        .setOccurredAt(t.occurredAt())
                        .setAppendedAt(t.appendedAt())
                        .setSource(t.source().wire())
                        .setPhase(wire(t.phase()))
                        .setStopReason(t.stopReason())
                        .setLaunch(t.launch())
                        .build())
                .setClosed(s.closed() == null ? null : lower(s.closed()))
                .setClosedAt(s.closedAt())
                .setLateAfterClose(s.lateAfterClose())
                .build();
    }
}
