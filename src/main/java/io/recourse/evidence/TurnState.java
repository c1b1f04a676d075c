package io.recourse.evidence;

import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Phase;
import java.time.Instant;
import java.util.List;

/**
 * The value of the <em>turn store</em> (DESIGN §4): everything the evidence stage remembers
 * about one turn {@code <session_id>/<prompt_generation>} between frames. Small and bounded
 * (at most {@link EvidenceBounds#maxSignals()} signal references and
 * {@link EvidenceBounds#effectTail()} effect marks with at most one excerpt's worth of text),
 * immutable, and serializable as plain data (Jackson handles it as a record; the streaming layer
 * may map it to Avro). Only {@link EvidenceAssembler} creates and advances it.
 *
 * <p>Sequence numbers of "none" are {@link Long#MAX_VALUE}, so "seen before the terminal frame"
 * is {@code minSeq < terminal.seq} whatever the arrival order.
 *
 * @param context           identity and dispatch facts gathered so far
 * @param originSeq         seq of the frame the origin fields ({@code prompt_origin},
 *                          {@code command_id}, {@code retry_of_generation}) came from, or
 *                          {@code null}
 * @param firstAppendAt     broker append time of the turn's first frame (UTC)
 * @param lastAppendAt      broker append time of its latest frame (UTC); the expiry index uses it
 * @param started           {@link TurnStarted} was emitted
 * @param progressed        {@link TurnProgressed} was emitted
 * @param promptRequestSeq  lowest seq of a {@code session/prompt} request, or {@code null}
 * @param promptRequestId   that request's JSON-RPC id as compact JSON, or {@code null}
 * @param minMessageSeq     lowest seq of an {@code agent_message_chunk} with non-blank text
 * @param minThoughtSeq     lowest seq of an {@code agent_thought_chunk} with non-blank text
 * @param minToolSeq        lowest seq of a {@code tool_call} / {@code tool_call_update}
 * @param effects           the latest effect marks in seq order: every message chunk, and the
 *                          first update of each run of tool/thought updates (message texts
 *                          sanitized and bounded together to one excerpt; older texts are
 *                          {@code null})
 * @param effectsEvicted    how many effect marks fell out of {@code effects}
 * @param markerSeq         lowest seq of a Codex failure marker ({@code update_meta} signal), or
 *                          {@link Long#MAX_VALUE}
 * @param kept              references to the signals in the signal store that the evidence keeps
 * @param signalsSeen       distinct signal-bearing frames seen
 * @param terminal          the terminal frame once closed, else {@code null}
 * @param closed            the closed marker, or {@code null} while open
 * @param closedAt          broker append time (or stream time, when expired) of closing
 * @param lateAfterClose    frames of this key that arrived after closing (counted, ignored)
 */
public record TurnState(
        TurnContext context,
        Long originSeq,
        Instant firstAppendAt,
        Instant lastAppendAt,
        boolean started,
        boolean progressed,
        Long promptRequestSeq,
        String promptRequestId,
        long minMessageSeq,
        long minThoughtSeq,
        long minToolSeq,
        List<EffectMark> effects,
        int effectsEvicted,
        long markerSeq,
        List<SignalRef> kept,
        int signalsSeen,
        Terminal terminal,
        ClosedMarker closed,
        Instant closedAt,
        int lateAfterClose) {

    /** "No such frame" for the {@code min*Seq} fields. */
    public static final long NONE = Long.MAX_VALUE;

    public TurnState {
        effects = List.copyOf(effects);
        kept = List.copyOf(kept);
    }

    /** The turn key {@code <session_id>/<prompt_generation>} (the record key of the frames). */
    public String turnKey() {
        return EvidenceAssembler.turnKey(context.sessionId(), context.promptGeneration());
    }

    /**
     * What a closed turn keeps in the turn store until it is purged (DESIGN §4, the closed
     * marker): the turn key ({@code session_id}, {@code prompt_generation}), the append times, the
     * started/progressed flags, the closed marker and when it was set, and the late-frame count. Everything else — identity and
     * origin fields, effect flags and marks, kept-signal references, the terminal frame — only
     * assembling the turn's evidence reads; a later frame of the turn only counts as
     * {@code late_after_close}, and the purge reads only {@code closedAt}. The rest was most of the
     * state of an idle session.
     *
     * @throws IllegalStateException when the turn is still open
     */
    public TurnState closedMarker() {
        if (open()) {
            throw new IllegalStateException("turn " + turnKey() + " is open");
        }
        TurnContext key = new TurnContext(context.sessionId(), context.promptGeneration(), null, null, null, null, null,
                null, null, null, null, null, null, null, false);
        return new TurnState(key, null, firstAppendAt, lastAppendAt, started, progressed, null, null, NONE, NONE, NONE,
                List.of(), 0, NONE, List.of(), 0, null, closed, closedAt, lateAfterClose);
    }

    /** This state with {@code lastAppendAt} replaced (the assembler's "nothing else changed" test). */
    TurnState withLastAppendAt(Instant at) {
        return at.equals(lastAppendAt) ? this : new TurnState(context, originSeq, firstAppendAt, at, started, progressed,
                promptRequestSeq, promptRequestId, minMessageSeq, minThoughtSeq, minToolSeq, effects, effectsEvicted,
                markerSeq, kept, signalsSeen, terminal, closed, closedAt, lateAfterClose);
    }

    /** True until the closed marker is written (not a bean getter, so it never shadows {@code closed} in JSON). */
    public boolean open() {
        return closed == null;
    }

    /** Signal-bearing frames not kept (so far) because of the bounds. */
    public int droppedSignals() {
        return signalsSeen - kept.size();
    }

    /** The Codex failure-marker flag: a failure-metadata update before the terminal frame (or so far, while open). */
    public boolean failureMarkerSeen() {
        return markerSeq < (terminal == null ? NONE : terminal.seq());
    }

    /** What closed a turn (DESIGN §4 closed marker). */
    public enum ClosedMarker {
        /** A terminal frame closed it; a TurnOutcome was emitted. */
        CLOSED,
        /** The idle bound closed it; a TurnExpired was emitted. */
        EXPIRED
    }

    /** Kind of an effect-bearing update (DESIGN §1 effect flags). */
    public enum EffectKind {
        /** {@code agent_message_chunk} with non-blank text. */
        MESSAGE,
        /** {@code agent_thought_chunk} with non-blank text. */
        THOUGHT,
        /** {@code tool_call} or {@code tool_call_update}. */
        TOOL
    }

    /**
     * One remembered effect-bearing update.
     *
     * @param text sanitized chunk text (MESSAGE only) while it fits the excerpt, else {@code null}
     */
    public record EffectMark(long seq, EffectKind kind, Instant occurredAt, Phase phase, String text) {
    }

    /**
     * A signal kept in the signal store.
     *
     * @param rank  keep priority: 3 terminal frame, 2 final chunk, 1 error position, 0 other
     * @param bytes {@link Signal#size()}
     */
    public record SignalRef(long seq, int rank, int bytes) {
    }

    /**
     * The frame that closed the turn.
     *
     * @param occurredAt  its {@code occurred_at}
     * @param appendedAt  its broker append time (the TurnOutcome's record timestamp)
     * @param stopReason  the {@code session/prompt} result's {@code stopReason}, or {@code null}
     * @param launch      a launch failure: closed before the {@code session/prompt} request in a
     *                    pre-start phase (or without a phase)
     */
    public record Terminal(long seq, Instant occurredAt, Instant appendedAt, FrameSource source, Phase phase,
                           String stopReason, boolean launch) {
    }
}
