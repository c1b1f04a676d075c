package io.recourse.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import io.recourse.evidence.TurnState.ClosedMarker;
import io.recourse.evidence.TurnState.EffectKind;
import io.recourse.evidence.TurnState.EffectMark;
import io.recourse.evidence.TurnState.SignalRef;
import io.recourse.evidence.TurnState.Terminal;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Payload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Evidence assembly as a pure state machine over one turn (DESIGN §4, §1 effect flags). No Kafka
 * types: the streaming processor keeps {@link TurnState} in the turn store and {@link Signal}s in
 * the signal window store and calls, per frame of generation ≥ 1 or 0:
 *
 * <ol>
 *   <li>{@link #accept(TurnState, Frame, Instant)} with the stored state (or {@code null}), the
 *       frame and its broker append time → {@link FrameStep}: new state, signal to store,
 *       events to emit, whether the turn closes now;</li>
 *   <li>on close, {@link #assemble(TurnState, Collection)} with the closed state and the turn's
 *       stored signals (key range {@link #signalRangeFrom}..{@link #signalRangeTo}, any order,
 *       duplicates allowed) → {@link ClosedTurn};</li>
 *   <li>{@link TurnOutcomes#outcome(ClosedTurn, TurnClassifier)} → the {@link TurnOutcome}.</li>
 * </ol>
 *
 * Rules implemented:
 * <ul>
 *   <li><b>Order</b>: everything is decided by {@code seq}, not arrival order — effect flags and
 *       the Codex marker keep lowest seqs and compare them with the terminal frame's seq; the
 *       final assistant chunk(s) are the trailing run of message chunks before the terminal
 *       seq (a run of tool/thought updates is marked once, by its first update: the later ones
 *       move no run boundary for frames in seq order); kept signals are a function of the set of
 *       frames. A duplicate {@code seq} is ignored.</li>
 *   <li><b>Closing</b>: a {@code session/prompt} result (any {@code stopReason}); an error
 *       response or {@code acp_error} to the prompt request (when its id is known; otherwise any
 *       error, and before the request in a pre-start phase it is a launch failure); an
 *       {@code exit}; {@code launch_failed}; {@code turn_abandoned}. A launch failure is a close
 *       before the {@code session/prompt} request (by seq) in a pre-start phase or without a
 *       phase. After closing every frame of the key is {@code late_after_close}: counted, never
 *       reopening the turn or emitting anything.</li>
 *   <li><b>Bounds and keep-priority</b>: signals are ranked terminal (3) &gt; final chunk (2)
 *       &gt; error position (1: error, stderr, exit, http, update_meta, launch_failed) &gt; other
 *       (0), newer before older within a rank; the kept set is the longest prefix of that
 *       ranking within {@link EvidenceBounds#maxSignals()} and
 *       {@link EvidenceBounds#maxTurnBytes()}, applied as frames arrive (to the signal store's
 *       references) and again at assembly with the final chunk. So the oldest error-position signals go first, the
 *       terminal frame and the latest final chunk never; the longest-prefix rule makes the kept
 *       set independent of arrival order.</li>
 *   <li><b>Generation 0</b> frames are dropped (no state) except {@code session_stopped} →
 *       {@link SessionStopped}.</li>
 *   <li><b>Session events</b>: {@link TurnStarted} on the first {@code prompt_dispatched} or
 *       {@code session/prompt} request; {@link TurnProgressed} once, after TurnStarted, on the
 *       first tool activity or thought output, or on a second message chunk — a single message
 *       chunk may be the surfaced failure text (the Codex capacity chunk), so it alone does not
 *       count as progress until the turn completes.</li>
 * </ul>
 * Thread-safe; holds only its configuration.
 */
public final class EvidenceAssembler {

    static final int RANK_TERMINAL = 3;
    static final int RANK_FINAL_CHUNK = 2;
    static final int RANK_ERROR_POSITION = 1;
    static final int RANK_OTHER = 0;

    private static final Comparator<SignalRef> KEEP_ORDER =
            Comparator.comparingInt(SignalRef::rank).reversed().thenComparing(SignalRef::seq, Comparator.reverseOrder());

    /**
     * How far a frame's append time must pass the stored {@link TurnState#lastAppendAt()} before a
     * frame that changes nothing else moves it (DESIGN §4: the idle bound is hours, so expiry
     * observes the last append time at this granularity, and such frames write no state).
     */
    public static final java.time.Duration LAST_APPEND_GRANULARITY = java.time.Duration.ofMinutes(1);

    private final EvidenceBounds bounds;
    private final SignalExtractor extractor;
    /** Whether a frame that changes nothing returns the input state (see {@link #accept}). */
    private final boolean keepUnchanged;
    /** Whether every tool/thought update gets an effect mark, not only one that starts a tool/thought run (tests). */
    private final boolean markEveryEffect;

    /** An assembler with {@link EvidenceBounds#DEFAULTS}. */
    public EvidenceAssembler() {
        this(EvidenceBounds.DEFAULTS);
    }

    public EvidenceAssembler(EvidenceBounds bounds) {
        this(bounds, true, false);
    }

    private EvidenceAssembler(EvidenceBounds bounds, boolean keepUnchanged, boolean markEveryEffect) {
        this.bounds = Objects.requireNonNull(bounds, "bounds");
        this.extractor = new SignalExtractor(bounds.maxSignalBytes());
        this.keepUnchanged = keepUnchanged;
        this.markEveryEffect = markEveryEffect;
    }

    /**
     * An assembler that advances the state on every frame (the last append time exactly, never the
     * stored state kept as it is): what every frame used to write, against which the write rule is
     * proven to lose nothing (tests).
     */
    static EvidenceAssembler advancingOnEveryFrame(EvidenceBounds bounds) {
        return new EvidenceAssembler(bounds, false, false);
    }

    /**
     * An assembler that also gives every tool/thought update an effect mark (the rule before tool and
     * thought runs were marked once), advancing the state on every frame: the reference against
     * which marking a run once is proven to change no output for frames in seq order (tests).
     */
    static EvidenceAssembler markingEveryEffect(EvidenceBounds bounds) {
        return new EvidenceAssembler(bounds, false, true);
    }

    public EvidenceBounds bounds() {
        return bounds;
    }

    /** The turn-store key and frame record key: {@code <session_id>/<prompt_generation>}. */
    public static String turnKey(String sessionId, int promptGeneration) {
        return sessionId + "/" + promptGeneration;
    }

    /** The signal-store key {@code <session_id>/<prompt_generation>#<seq, 20 digits zero-padded>}. */
    public static String signalKey(String turnKey, long seq) {
        return turnKey + "#" + String.format("%020d", seq);
    }

    /** Lower bound (inclusive) of a turn's signal keys: {@code <turn>#}. */
    public static String signalRangeFrom(String turnKey) {
        return turnKey + "#";
    }

    /** Upper bound (inclusive) of a turn's signal keys: {@code <turn>#~}. */
    public static String signalRangeTo(String turnKey) {
        return turnKey + "#~";
    }

    /**
     * Feeds one frame (DESIGN §4).
     *
     * @param state      the turn store's value for {@code frame.turnKey()}, or {@code null}
     * @param frame      a frame accepted by {@link io.recourse.ingress.FrameParser}
     * @param appendedAt the record's broker append time (UTC; LogAppendTime)
     * @return the step; its {@code state} is {@code null} only for generation-0 frames, and is
     *         {@code state} itself (the same instance) when the frame changes nothing that must
     *         survive a crash — a frame with no signal, no effect mark, no event, no identity or
     *         origin field and no close, within {@link #LAST_APPEND_GRANULARITY} of the stored last
     *         append time (also a duplicate): the processor writes nothing for it
     */
    public FrameStep accept(TurnState state, Frame frame, Instant appendedAt) {
        Objects.requireNonNull(frame, "frame");
        Objects.requireNonNull(appendedAt, "appendedAt");
        if (frame.promptGeneration() == 0) {
            List<SessionEvent> events = List.of();
            if (frame.source() == FrameSource.LIFECYCLE && "session_stopped".equals(event(frame))) {
                events = List.of(new SessionStopped(contextOf(frame), frame.occurredAt()));
            }
            return new FrameStep(null, Optional.empty(), List.of(), events, false, false, false);
        }
        if (state != null && !state.open()) {
            TurnState late = new MutableTurnState(state).lateAfterClose(state.lateAfterClose() + 1).freeze();
            return new FrameStep(late, Optional.empty(), List.of(), List.of(), false, true, false);
        }
        if (state != null && seen(state, frame.seq())) {
            return new FrameStep(state, Optional.empty(), List.of(), List.of(), false, false, true);
        }

        MutableTurnState m = state == null ? MutableTurnState.open(frame, appendedAt) : new MutableTurnState(state);
        m.firstAppendAt = min(m.firstAppendAt, appendedAt);
        m.lastAppendAt = max(m.lastAppendAt, appendedAt);
        m.mergeIdentity(frame);
        List<SessionEvent> events = new ArrayList<>();

        Payload p = frame.payload();
        boolean promptFrame = false;
        String promptDigest = PromptDigest.isDigest(frame.promptDigest()) ? frame.promptDigest() : null;
        switch (frame.source()) {
            case ACP_REQUEST -> {
                if ("session/prompt".equals(p.method())) {
                    promptFrame = true;
                    if (m.promptRequestSeq == null || frame.seq() < m.promptRequestSeq) {
                        m.promptRequestSeq = frame.seq();
                        m.promptRequestId = p.id() != null ? p.id().toString() : null;
                    }
                    if (promptDigest == null) {
                        promptDigest = PromptDigest.digest(p.prompt());
                    }
                }
            }
            case LIFECYCLE -> promptFrame = "prompt_dispatched".equals(event(frame));
            case ACP_UPDATE -> EffectTail.record(m, frame, bounds, markEveryEffect);
            default -> {
            }
        }
        if (promptFrame) {
            m.mergeOrigin(frame);
            if (!m.started) {
                m.started = true;
                events.add(new TurnStarted(m.context, promptDigest, PromptDigest.digest(frame.turnConfig()), frame.occurredAt()));
            }
        }

        boolean closes = closes(m, frame);
        Optional<Signal> signal = extractor.extract(frame);
        Optional<Signal> toStore = Optional.empty();
        List<Long> evicted = List.of();
        if (signal.isPresent()) {
            Signal s = signal.get();
            if (s.kind() == SignalKind.UPDATE_META) {
                m.markerSeq = Math.min(m.markerSeq, frame.seq());
            }
            int rank = closes ? RANK_TERMINAL : rank(s);
            List<SignalRef> candidates = new ArrayList<>(m.kept);
            candidates.add(new SignalRef(s.seq(), rank, s.size()));
            m.signalsSeen++;
            List<SignalRef> kept = select(candidates, bounds.maxSignals(), bounds.maxTurnBytes());
            Set<Long> keptSeqs = seqs(kept);
            List<Long> gone = new ArrayList<>();
            for (SignalRef r : m.kept) {
                if (!keptSeqs.contains(r.seq())) {
                    gone.add(r.seq());
                }
            }
            m.kept = kept;
            evicted = gone;
            if (keptSeqs.contains(s.seq())) {
                toStore = signal;
            }
        }

        if (m.started && !m.progressed && EffectTail.progress(m)) {
            m.progressed = true;
            events.add(new TurnProgressed(m.context, m.minMessageSeq != TurnState.NONE || m.minThoughtSeq != TurnState.NONE,
                    m.minToolSeq != TurnState.NONE, frame.occurredAt()));
        }

        if (closes) {
            boolean launch = !(frame.source() == FrameSource.ACP_RESPONSE && signal.map(x -> x.kind() == SignalKind.STOP).orElse(false))
                    && (m.promptRequestSeq == null || m.promptRequestSeq > frame.seq())
                    && (frame.phase() == null || frame.phase().preStart());
            String stopReason = signal.filter(x -> x.kind() == SignalKind.STOP).map(x -> x.field("stop_reason")).orElse(null);
            m.terminal = new Terminal(frame.seq(), frame.occurredAt(), appendedAt, frame.source(), frame.phase(), stopReason, launch);
            m.closed = ClosedMarker.CLOSED;
            m.closedAt = appendedAt;
        }
        TurnState next = m.freeze();
        if (keepUnchanged && state != null && !closes && toStore.isEmpty() && evicted.isEmpty() && events.isEmpty()
                && appendedAt.isBefore(state.lastAppendAt().plus(LAST_APPEND_GRANULARITY))
                && state.equals(next.withLastAppendAt(state.lastAppendAt()))) {
            // Nothing an output reads changed, and the last append time moved by less than its
            // granularity: the state stays as stored, so the processor writes nothing.
            return new FrameStep(state, Optional.empty(), List.of(), List.of(), false, false, false);
        }
        return new FrameStep(next, toStore, evicted, events, closes, false, false);
    }

    /**
     * Closes an idle, still-open turn with the marker {@code expired} (DESIGN §4: expiry is
     * observed, not silent). The caller counts {@code evidence_expired}.
     *
     * @param state      the turn store's value
     * @param streamTime the stream time at which the idle bound passed (UTC)
     * @return the closed state and the {@link TurnExpired} to emit; empty when already closed
     */
    public Optional<Expired> expire(TurnState state, Instant streamTime) {
        if (state == null || !state.open()) {
            return Optional.empty();
        }
        MutableTurnState m = new MutableTurnState(state);
        m.closed = ClosedMarker.EXPIRED;
        m.closedAt = streamTime;
        return Optional.of(new Expired(m.freeze(), new TurnExpired(state.context(), state.lastAppendAt(), streamTime)));
    }

    /** Result of {@link #expire}: the state to put and the event to emit. */
    public record Expired(TurnState state, TurnExpired event) {
    }

    /**
     * Assembles the evidence of a turn closed by a terminal frame (DESIGN §4).
     *
     * @param state   a state whose {@link TurnState#terminal()} is set
     * @param stored  the turn's signals as fetched from the signal store: any order, duplicates
     *                allowed, signals the state no longer keeps ignored
     * @return the evidence (signals in seq order within the bounds, the final-chunk excerpt
     *         included) and the outcome facts
     * @throws IllegalArgumentException when the state has no terminal frame
     */
    public ClosedTurn assemble(TurnState state, Collection<Signal> stored) {
        Terminal t = state.terminal();
        if (t == null) {
            throw new IllegalArgumentException("turn " + state.turnKey() + " has no terminal frame");
        }
        // Signals after the terminal frame by seq (arrived before it) are not the turn's evidence,
        // exactly as if they had arrived after it (late_after_close).
        Map<Long, SignalRef> refs = new LinkedHashMap<>();
        int afterTerminal = 0;
        for (SignalRef r : state.kept()) {
            if (r.seq() <= t.seq()) {
                refs.put(r.seq(), r);
            } else {
                afterTerminal++;
            }
        }
        Map<Long, Signal> bySeq = new TreeMap<>();
        for (Signal s : stored) {
            if (s != null && refs.containsKey(s.seq()) && !bySeq.containsKey(s.seq())) {
                bySeq.put(s.seq(), boundSignal(s));
            }
        }

        // The final assistant chunk(s): the trailing run of message chunks before the terminal seq.
        List<EffectMark> before = new ArrayList<>();
        for (EffectMark e : state.effects()) {
            if (e.seq() < t.seq()) {
                before.add(e);
            }
        }
        int start = before.size();
        while (start > 0 && before.get(start - 1).kind() == EffectKind.MESSAGE) {
            start--;
        }
        List<EffectMark> run = before.subList(start, before.size());
        long runStart = run.isEmpty() ? t.seq() : run.get(0).seq();
        boolean runComplete = !run.isEmpty() && run.stream().allMatch(e -> e.text() != null)
                && !(start == 0 && state.effectsEvicted() > 0);
        Signal finalChunk = null;
        if (!run.isEmpty()) {
            StringBuilder text = new StringBuilder();
            for (EffectMark e : run) {
                if (e.text() != null) {
                    text.append(e.text());
                }
            }
            EffectMark last = run.get(run.size() - 1);
            String sanitized = Sanitizer.sanitize(text.toString());
            TreeMap<String, String> fields = new TreeMap<>();
            fields.put("text", sanitized);
            finalChunk = new Signal(last.seq(), last.occurredAt(), FrameSource.ACP_UPDATE, last.phase(), SignalKind.FINAL_CHUNK,
                    SignalExtractor.bound(fields, bounds.maxSignalBytes()));
            runComplete = runComplete && SignalExtractor.utf8(text.toString()) <= bounds.maxSignalBytes()
                    && sanitized.length() > 0;
        }

        List<SignalRef> candidates = new ArrayList<>();
        for (Signal s : bySeq.values()) {
            candidates.add(new SignalRef(s.seq(), refs.get(s.seq()).rank(), s.size()));
        }
        if (finalChunk != null) {
            long chunkSeq = finalChunk.seq();
            bySeq.remove(chunkSeq); // a chunk never carries another signal; defensive
            candidates.removeIf(r -> r.seq() == chunkSeq);
            candidates.add(new SignalRef(finalChunk.seq(), RANK_FINAL_CHUNK, finalChunk.size()));
            bySeq.put(finalChunk.seq(), finalChunk);
        }
        Signal terminalSignal = bySeq.get(t.seq());
        boolean split = terminalSignal != null && terminalSignal.kind() == SignalKind.STOP && terminalSignal.field("meta") != null;
        List<SignalRef> kept = select(candidates, bounds.maxSignals() - (split ? 1 : 0), bounds.maxTurnBytes());
        List<Signal> signals = new ArrayList<>();
        for (SignalRef r : kept) {
            signals.addAll(evidenceForm(bySeq.get(r.seq())));
        }
        int offered = state.signalsSeen() - afterTerminal + (finalChunk == null ? 0 : 1);
        int dropped = Math.max(0, offered - kept.size());

        boolean thoughtBefore = state.minThoughtSeq() < t.seq();
        boolean rawOutput = thoughtBefore || state.minMessageSeq() < t.seq();
        boolean outputBeforeRun = thoughtBefore || state.minMessageSeq() < runStart;
        boolean tool = state.minToolSeq() < t.seq();
        TurnContext c = state.context();
        Evidence evidence = new Evidence(c.sessionId(), c.promptGeneration(), c.agentType(), c.providerId(), c.modelId(),
                t.launch(), signals, t.occurredAt(), t.stopReason(), rawOutput, tool, dropped);
        return new ClosedTurn(evidence, c, t.occurredAt(), t.appendedAt(), outputBeforeRun, runComplete,
                state.failureMarkerSeen(), t.source());
    }

    /**
     * The evidence form of a stored signal: a {@code stop} carrying {@code meta} becomes
     * {@code stop{stop_reason}} followed by {@code update_meta{update: "prompt_result", meta}} at
     * the same seq — the prompt result's typed failure metadata read by the catalogue's
     * update-metadata rules. Every other signal is itself.
     */
    static List<Signal> evidenceForm(Signal s) {
        String meta = s.field("meta");
        if (s.kind() != SignalKind.STOP || meta == null) {
            return List.of(s);
        }
        TreeMap<String, String> stop = new TreeMap<>(s.fields());
        stop.remove("meta");
        TreeMap<String, String> update = new TreeMap<>();
        update.put("update", "prompt_result");
        update.put("meta", meta);
        return List.of(new Signal(s.seq(), s.occurredAt(), s.source(), s.phase(), SignalKind.STOP, stop),
                new Signal(s.seq(), s.occurredAt(), s.source(), s.phase(), SignalKind.UPDATE_META, update));
    }

    // ---------------------------------------------------------------- rules

    private static boolean closes(MutableTurnState m, Frame frame) {
        Payload p = frame.payload();
        return switch (frame.source()) {
            case ACP_RESPONSE -> {
                if (p.hasStopReason()) {
                    yield true;
                }
                yield p.errorIsObject() && answersPrompt(m, p);
            }
            case ACP_ERROR -> answersPrompt(m, p);
            case EXIT -> true;
            case LIFECYCLE -> {
                String event = event(frame);
                yield "launch_failed".equals(event) || "turn_abandoned".equals(event);
            }
            default -> false;
        };
    }

    /** An error answers the prompt request when its id is the request's, or the request's id is not known. */
    private static boolean answersPrompt(MutableTurnState m, Payload p) {
        if (m.promptRequestId == null) {
            return true;
        }
        JsonNode id = p.id();
        return id == null || id.isNull() || id.toString().equals(m.promptRequestId);
    }

    private static int rank(Signal s) {
        return switch (s.kind()) {
            case ERROR, STDERR, EXIT, HTTP, UPDATE_META, FINAL_CHUNK -> RANK_ERROR_POSITION;
            case LIFECYCLE -> "launch_failed".equals(s.field("event")) ? RANK_ERROR_POSITION : RANK_OTHER;
            case STOP -> s.field("meta") != null ? RANK_ERROR_POSITION : RANK_OTHER;
        };
    }

    /** Longest prefix of the keep ranking within the bounds, returned in seq order. */
    static List<SignalRef> select(Collection<SignalRef> refs, int maxCount, int maxBytes) {
        Map<Long, SignalRef> unique = new LinkedHashMap<>();
        for (SignalRef r : refs) {
            unique.merge(r.seq(), r, (a, b) -> a.rank() >= b.rank() ? a : b);
        }
        List<SignalRef> ranked = new ArrayList<>(unique.values());
        ranked.sort(KEEP_ORDER);
        List<SignalRef> out = new ArrayList<>();
        int bytes = 0;
        for (SignalRef r : ranked) {
            if (out.size() + 1 > maxCount || bytes + r.bytes() > maxBytes) {
                break;
            }
            out.add(r);
            bytes += r.bytes();
        }
        out.sort(Comparator.comparingLong(SignalRef::seq));
        return out;
    }

    private static boolean seen(TurnState s, long seq) {
        if (Objects.equals(s.promptRequestSeq(), seq) || Objects.equals(s.originSeq(), seq)) {
            return true;
        }
        for (SignalRef r : s.kept()) {
            if (r.seq() == seq) {
                return true;
            }
        }
        for (EffectMark e : s.effects()) {
            if (e.seq() == seq) {
                return true;
            }
        }
        return seq == s.minMessageSeq() || seq == s.minThoughtSeq() || seq == s.minToolSeq() || seq == s.markerSeq();
    }

    private Signal boundSignal(Signal s) {
        if (s.size() <= bounds.maxSignalBytes()) {
            return s;
        }
        return new Signal(s.seq(), s.occurredAt(), s.source(), s.phase(), s.kind(),
                SignalExtractor.bound(s.fields(), bounds.maxSignalBytes()));
    }

    private static Set<Long> seqs(List<SignalRef> refs) {
        Set<Long> out = new HashSet<>();
        for (SignalRef r : refs) {
            out.add(r.seq());
        }
        return out;
    }

    static String event(Frame frame) {
        return frame.payload().event();
    }

    static TurnContext contextOf(Frame f) {
        return new TurnContext(f.sessionId(), f.promptGeneration(), f.promptOrigin(), f.retryOfGeneration(), f.commandId(),
                f.profileKind(), label(f.agentType()), f.agentProfileId(), f.executionProfileId(), label(f.providerId()),
                label(f.modelId()), f.runId(), f.workspaceId(), f.taskId(), f.resumeGuarantee());
    }

    /**
     * An agent type, provider or model id as it may travel in every output (TurnContext,
     * classifications, unclassified evidence, stores): sanitized (DESIGN §9), so a credential a
     * gateway put into it never leaves, whatever the ingress validation let through; ordinary ids
     * ({@code claude-acp}, {@code anthropic}, {@code gpt-5.5}, {@code models/gemini-2.5-pro}) are
     * unchanged. Routing identities (session, workspace, run, profile, task and command ids) are
     * keys or correlation ids and are kept as sent (DESIGN §9 lists them).
     */
    static String label(String id) {
        return id == null ? null : Sanitizer.sanitize(id);
    }

    private static Instant min(Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }

    private static Instant max(Instant a, Instant b) {
        return a == null || b.isAfter(a) ? b : a;
    }

    static <T> T first(T a, T b) {
        return a != null ? a : b;
    }
}
