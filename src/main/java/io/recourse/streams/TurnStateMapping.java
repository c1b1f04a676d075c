package io.recourse.streams;

import static io.recourse.streams.AvroConversions.lower;
import static io.recourse.streams.AvroConversions.parse;
import static io.recourse.streams.AvroConversions.upper;
import static io.recourse.streams.AvroConversions.wire;

import io.recourse.WireName;
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

/**
 * Mapping between {@link TurnState} (the pure evidence stage's turn state) and the Avro
 * {@link TurnStateValue} of the turn store (DESIGN §4). Enums travel as wire names (the closed
 * marker and effect kinds in lower case); instants as {@code timestamp-millis}, so
 * {@code fromAvro(toAvro(s))} equals {@code s} up to millisecond precision.
 *
 * @throws IllegalArgumentException (from {@link #fromAvro}) on an unknown wire name
 */
public final class TurnStateMapping {

    private TurnStateMapping() {
    }

    /** The Avro form of a turn state. */
    public static TurnStateValue toAvro(TurnState s) {
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
        return new TurnState(c, v.getOriginSeq(), v.getFirstAppendAt(), v.getLastAppendAt(), v.getStarted(), v.getProgressed(),
                v.getPromptRequestSeq(), v.getPromptRequestId(), v.getMinMessageSeq(), v.getMinThoughtSeq(), v.getMinToolSeq(),
                v.getEffects().stream().map(e -> new EffectMark(e.getSeq(), upper(EffectKind.class, e.getKind()), e.getOccurredAt(),
                        parse(Phase.class, e.getPhase()), e.getText())).toList(),
                v.getEffectsEvicted(), v.getMarkerSeq(),
                v.getKept().stream().map(r -> new SignalRef(r.getSeq(), r.getRank(), r.getBytes())).toList(),
                v.getSignalsSeen(), terminal, v.getClosed() == null ? null : upper(ClosedMarker.class, v.getClosed()),
                v.getClosedAt(), v.getLateAfterClose());
    }
}
