package io.recourse.evidence.streams;

import static io.recourse.kit.AvroConversions.lower;
import static io.recourse.kit.AvroConversions.parse;
import static io.recourse.kit.AvroConversions.upper;
import static io.recourse.kit.AvroConversions.wire;

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
import io.recourse.kit.AvroConversions;
import io.recourse.taxonomy.WireName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Mapping between {@link TurnState} (the pure evidence stage's turn state) and the Avro
 * {@link TurnStateValue} of the turn store (DESIGN §4). Enums travel as wire names (the closed
 * marker and effect kinds in lower case); instants as {@code timestamp-millis}, so
 * {@code fromAvro(toAvro(s))} equals {@code s} up to millisecond precision.
 *
 * @throws IllegalArgumentException (from {@link #fromAvro}) on an unknown wire name
 */
public final class TurnStateMapping {

    /** {@link AvroConversions#lower} of each effect kind, by ordinal (the per-frame path maps every effect mark). */
    private static final String[] EFFECT_KINDS = Arrays.stream(EffectKind.values()).map(AvroConversions::lower)
            .toArray(String[]::new);

    private TurnStateMapping() {
    }

    /**
     * The Avro form of a turn state. Built with the generated all-args constructors, not the
     * builders: the builders validate and copy every field, which showed in the evidence stage's
     * per-frame profile; the value is the same record.
     */
    public static TurnStateValue toAvro(TurnState s) {
        TurnContext c = s.context();
        Terminal t = s.terminal();
        List<TurnEffectMark> effects = new ArrayList<>(s.effects().size());
        for (EffectMark e : s.effects()) {
            effects.add(effectMark(e));
        }
        List<TurnSignalRef> kept = new ArrayList<>(s.kept().size());
        for (SignalRef r : s.kept()) {
            kept.add(new TurnSignalRef(r.seq(), r.rank(), r.bytes()));
        }
        TurnTerminal terminal = t == null ? null : new TurnTerminal(t.seq(), t.occurredAt(), t.appendedAt(),
                t.source().wire(), wire(t.phase()), t.stopReason(), t.launch());
        return new TurnStateValue(c.sessionId(), c.promptGeneration(), wire(c.promptOrigin()), c.retryOfGeneration(),
                c.commandId(), wire(c.profileKind()), c.agentType(), c.agentProfileId(), c.executionProfileId(),
                c.providerId(), c.modelId(), c.runId(), c.workspaceId(), c.taskId(), c.resumeGuarantee(),
                s.originSeq(), s.firstAppendAt(), s.lastAppendAt(), s.started(), s.progressed(), s.promptRequestSeq(),
                s.promptRequestId(), s.minMessageSeq(), s.minThoughtSeq(), s.minToolSeq(), effects, s.effectsEvicted(),
                s.markerSeq(), kept, s.signalsSeen(), terminal, s.closed() == null ? null : lower(s.closed()),
                s.closedAt(), s.lateAfterClose());
    }

    /**
     * The Avro form of an effect mark, as its all-args constructor makes it but without the
     * constructor's {@code Instant.truncatedTo} (a turn re-maps all its effect marks on
     * every frame, and they are already whole milliseconds unless the frame's time was finer).
     */
    private static TurnEffectMark effectMark(EffectMark e) {
        TurnEffectMark m = new TurnEffectMark();
        m.setSeq(e.seq());
        m.setKind(EFFECT_KINDS[e.kind().ordinal()]);
        m.put(2, millis(e.occurredAt()));
        m.setPhase(wire(e.phase()));
        m.setText(e.text());
        return m;
    }

    /** The domain form of a stored turn state. */
    public static TurnState fromAvro(TurnStateValue v) {
        TurnContext c = new TurnContext(v.getSessionId(), v.getPromptGeneration(), parse(PromptOrigin.class, v.getPromptOrigin()),
                v.getRetryOfGeneration(), v.getCommandId(), parse(ProfileKind.class, v.getProfileKind()), v.getAgentType(),
                v.getAgentProfileId(), v.getExecutionProfileId(), v.getProviderId(), v.getModelId(), v.getRunId(),
                v.getWorkspaceId(), v.getTaskId(), v.getResumeGuarantee());
        TurnTerminal t = v.getTerminal();
        Terminal terminal = t == null ? null : new Terminal(t.getSeq(), t.getOccurredAt(), t.getAppendedAt(),
                WireName.parse(FrameSource.class, t.getSource()), parse(Phase.class, t.getPhase()), t.getStopReason(),
                t.getLaunch());
        List<EffectMark> effects = new ArrayList<>(v.getEffects().size());
        for (TurnEffectMark e : v.getEffects()) {
            effects.add(new EffectMark(e.getSeq(), upper(EffectKind.class, e.getKind()), e.getOccurredAt(),
                    parse(Phase.class, e.getPhase()), e.getText()));
        }
        List<SignalRef> kept = new ArrayList<>(v.getKept().size());
        for (TurnSignalRef r : v.getKept()) {
            kept.add(new SignalRef(r.getSeq(), r.getRank(), r.getBytes()));
        }
        return new TurnState(c, v.getOriginSeq(), v.getFirstAppendAt(), v.getLastAppendAt(), v.getStarted(), v.getProgressed(),
                v.getPromptRequestSeq(), v.getPromptRequestId(), v.getMinMessageSeq(), v.getMinThoughtSeq(), v.getMinToolSeq(),
                effects, v.getEffectsEvicted(), v.getMarkerSeq(), kept,
                v.getSignalsSeen(), terminal, v.getClosed() == null ? null : upper(ClosedMarker.class, v.getClosed()),
                v.getClosedAt(), v.getLateAfterClose());
    }

    /**
     * An estimate in bytes of the heap a decoded {@code s} takes (the turn-state cache's byte
     * bound): a fixed part for the objects and instants, two bytes per character of its strings,
     * and a part per effect mark and kept-signal reference. An over- rather than under-estimate.
     */
    public static long estimatedBytes(TurnState s) {
        TurnContext c = s.context();
        long chars = len(c.sessionId()) + len(c.commandId()) + len(c.agentType()) + len(c.agentProfileId())
                + len(c.executionProfileId()) + len(c.providerId()) + len(c.modelId()) + len(c.runId())
                + len(c.workspaceId()) + len(c.taskId()) + len(s.promptRequestId());
        return 640 + 2 * chars + 64L * s.effects().size() + 48L * s.kept().size();
    }

    private static long len(String v) {
        return v == null ? 0 : 48 + v.length();
    }

    /**
     * The state as the turn store gives it back: {@code fromAvro(decode(encode(toAvro(s))))} equals
     * {@code stored(s)} — the instants cut to whole milliseconds ({@code timestamp-millis}), all
     * else as it is. Returns {@code s} itself when it has no sub-millisecond instant. The
     * processor's decoded-state cache holds this form, so a cache hit and a store read are equal.
     */
    public static TurnState stored(TurnState s) {
        if (whole(s.firstAppendAt()) && whole(s.lastAppendAt()) && whole(s.closedAt()) && wholeEffects(s.effects())
                && (s.terminal() == null || whole(s.terminal().occurredAt()) && whole(s.terminal().appendedAt()))) {
            return s;
        }
        Terminal t = s.terminal();
        List<EffectMark> effects = new ArrayList<>(s.effects().size());
        for (EffectMark e : s.effects()) {
            effects.add(new EffectMark(e.seq(), e.kind(), millis(e.occurredAt()), e.phase(), e.text()));
        }
        return new TurnState(s.context(), s.originSeq(), millis(s.firstAppendAt()), millis(s.lastAppendAt()), s.started(),
                s.progressed(), s.promptRequestSeq(), s.promptRequestId(), s.minMessageSeq(), s.minThoughtSeq(),
                s.minToolSeq(), effects, s.effectsEvicted(), s.markerSeq(), s.kept(), s.signalsSeen(),
                t == null ? null : new Terminal(t.seq(), millis(t.occurredAt()), millis(t.appendedAt()), t.source(), t.phase(),
                        t.stopReason(), t.launch()),
                s.closed(), millis(s.closedAt()), s.lateAfterClose());
    }

    private static boolean wholeEffects(List<EffectMark> effects) {
        for (EffectMark e : effects) {
            if (!whole(e.occurredAt())) {
                return false;
            }
        }
        return true;
    }

    private static boolean whole(Instant i) {
        return i == null || i.getNano() % 1_000_000 == 0;
    }

    /** {@code i} cut to whole milliseconds as {@code timestamp-millis} does; {@code null} stays {@code null}. */
    private static Instant millis(Instant i) {
        return whole(i) ? i : Instant.ofEpochMilli(i.toEpochMilli());
    }
}
