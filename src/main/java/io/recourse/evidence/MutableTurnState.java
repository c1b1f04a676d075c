package io.recourse.evidence;

import static io.recourse.evidence.EvidenceAssembler.contextOf;
import static io.recourse.evidence.EvidenceAssembler.first;
import static io.recourse.evidence.EvidenceAssembler.label;

import io.recourse.evidence.TurnState.ClosedMarker;
import io.recourse.evidence.TurnState.EffectMark;
import io.recourse.evidence.TurnState.SignalRef;
import io.recourse.evidence.TurnState.Terminal;
import io.recourse.ingress.Frame;
import java.time.Instant;
import java.util.List;

/** Working copy of a {@link TurnState} while one frame is applied. */
final class MutableTurnState {
    TurnContext context;
    Long originSeq;
    Instant firstAppendAt;
    Instant lastAppendAt;
    boolean started;
    boolean progressed;
    Long promptRequestSeq;
    String promptRequestId;
    long minMessageSeq;
    long minThoughtSeq;
    long minToolSeq;
    List<EffectMark> effects;
    int effectsEvicted;
    long markerSeq;
    List<SignalRef> kept;
    int signalsSeen;
    Terminal terminal;
    ClosedMarker closed;
    Instant closedAt;
    int lateAfterClose;

    MutableTurnState(TurnState s) {
        context = s.context();
        originSeq = s.originSeq();
        firstAppendAt = s.firstAppendAt();
        lastAppendAt = s.lastAppendAt();
        started = s.started();
        progressed = s.progressed();
        promptRequestSeq = s.promptRequestSeq();
        promptRequestId = s.promptRequestId();
        minMessageSeq = s.minMessageSeq();
        minThoughtSeq = s.minThoughtSeq();
        minToolSeq = s.minToolSeq();
        effects = s.effects();
        effectsEvicted = s.effectsEvicted();
        markerSeq = s.markerSeq();
        kept = s.kept();
        signalsSeen = s.signalsSeen();
        terminal = s.terminal();
        closed = s.closed();
        closedAt = s.closedAt();
        lateAfterClose = s.lateAfterClose();
    }

    static MutableTurnState open(Frame f, Instant appendedAt) {
        TurnContext c = contextOf(f);
        // Origin fields belong to the turn's prompt_dispatched / session/prompt frame only.
        c = new TurnContext(c.sessionId(), c.promptGeneration(), null, null, null, c.profileKind(), c.agentType(),
                c.agentProfileId(), c.executionProfileId(), c.providerId(), c.modelId(), c.runId(), c.workspaceId(),
                c.taskId(), c.resumeGuarantee());
        return new MutableTurnState(new TurnState(c, null, appendedAt, appendedAt, false, false, null, null,
                TurnState.NONE, TurnState.NONE, TurnState.NONE, List.of(), 0, TurnState.NONE, List.of(), 0,
                null, null, null, 0));
    }

    MutableTurnState lateAfterClose(int n) {
        lateAfterClose = n;
        return this;
    }

    /**
     * Fills identity fields still unknown from the frame (the first value wins). Keeps the
     * context object when the frame adds nothing, and sanitizes a provider/model id only when
     * it is taken (both were done on every frame).
     */
    void mergeIdentity(Frame f) {
        TurnContext c = context;
        if (!adds(c.profileKind(), f.profileKind()) && !adds(c.agentType(), f.agentType())
                && !adds(c.agentProfileId(), f.agentProfileId()) && !adds(c.executionProfileId(), f.executionProfileId())
                && !adds(c.providerId(), f.providerId()) && !adds(c.modelId(), f.modelId())
                && !adds(c.runId(), f.runId()) && !adds(c.workspaceId(), f.workspaceId()) && !adds(c.taskId(), f.taskId())
                && (c.resumeGuarantee() || !f.resumeGuarantee())) {
            return;
        }
        context = new TurnContext(c.sessionId(), c.promptGeneration(), c.promptOrigin(), c.retryOfGeneration(),
                c.commandId(), first(c.profileKind(), f.profileKind()), c.agentType() != null ? c.agentType() : label(f.agentType()),
                first(c.agentProfileId(), f.agentProfileId()), first(c.executionProfileId(), f.executionProfileId()),
                c.providerId() != null ? c.providerId() : label(f.providerId()),
                c.modelId() != null ? c.modelId() : label(f.modelId()),
                first(c.runId(), f.runId()),
                first(c.workspaceId(), f.workspaceId()), first(c.taskId(), f.taskId()),
                c.resumeGuarantee() || f.resumeGuarantee());
    }

    /** Whether {@link #first} would take {@code offered} over {@code known}. */
    private static boolean adds(Object known, Object offered) {
        return known == null && offered != null;
    }

    /** Origin fields from the lowest-seq prompt frame that carries any of them. */
    void mergeOrigin(Frame f) {
        boolean carries = f.promptOrigin() != null || f.commandId() != null || f.retryOfGeneration() != null;
        if (!carries || (originSeq != null && originSeq < f.seq())) {
            return;
        }
        TurnContext c = context;
        originSeq = f.seq();
        context = new TurnContext(c.sessionId(), c.promptGeneration(), f.promptOrigin(), f.retryOfGeneration(),
                f.commandId(), c.profileKind(), c.agentType(), c.agentProfileId(), c.executionProfileId(),
                c.providerId(), c.modelId(), c.runId(), c.workspaceId(), c.taskId(), c.resumeGuarantee());
    }

    TurnState freeze() {
        return new TurnState(context, originSeq, firstAppendAt, lastAppendAt, started, progressed, promptRequestSeq,
                promptRequestId, minMessageSeq, minThoughtSeq, minToolSeq, effects, effectsEvicted, markerSeq, kept,
                signalsSeen, terminal, closed, closedAt, lateAfterClose);
    }
}
