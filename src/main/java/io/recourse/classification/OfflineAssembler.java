package io.recourse.classification;

import io.recourse.evidence.ClosedTurn;
import io.recourse.evidence.EvidenceAssembler;
import io.recourse.evidence.EvidenceBounds;
import io.recourse.evidence.FrameStep;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.Signal;
import io.recourse.evidence.TurnExpired;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.TurnState;
import io.recourse.ingress.Frame;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An in-memory driver of {@link EvidenceAssembler} over frames of many sessions and turns in any
 * arrival order, with maps standing in for the turn store and the signal store — what the
 * streaming processor does, without Kafka (DESIGN §4). Used by the {@code classify} CLI and by
 * tests. Not thread-safe; one instance per stream of frames.
 */
public final class OfflineAssembler {

    private final EvidenceAssembler assembler;
    private final TurnClassifier classifier;
    private final Map<String, TurnState> turnStore = new LinkedHashMap<>();
    private final TreeMap<String, Signal> signalStore = new TreeMap<>();
    private final Map<String, ClosedTurn> closedTurns = new LinkedHashMap<>();
    private final List<SessionEvent> events = new ArrayList<>();
    private final Map<String, Integer> counters = new HashMap<>();

    /** A driver with {@link EvidenceBounds#DEFAULTS}. */
    public OfflineAssembler(TurnClassifier classifier) {
        this(classifier, EvidenceBounds.DEFAULTS);
    }

    public OfflineAssembler(TurnClassifier classifier, EvidenceBounds bounds) {
        this.classifier = Objects.requireNonNull(classifier, "classifier");
        this.assembler = new EvidenceAssembler(bounds);
    }

    /**
     * Classifies a whole stream of frames, taking each frame's {@code occurred_at} as its
     * append time.
     *
     * @return the outcomes of the turns the frames closed, in closing order
     */
    public static List<TurnOutcome> outcomes(Iterable<Frame> frames, TurnClassifier classifier) {
        OfflineAssembler driver = new OfflineAssembler(classifier);
        for (Frame f : frames) {
            driver.accept(f, f.occurredAt());
        }
        return driver.outcomes();
    }

    /**
     * Feeds one frame.
     *
     * @param appendedAt the broker append time to use (UTC)
     * @return the session events this frame caused, the {@link TurnOutcome} last when it closed a turn
     */
    public List<SessionEvent> accept(Frame frame, Instant appendedAt) {
        String key = frame.turnKey();
        FrameStep step = assembler.accept(turnStore.get(key), frame, appendedAt);
        if (step.lateAfterClose()) {
            counters.merge("late_after_close", 1, Integer::sum);
        }
        if (step.duplicate()) {
            counters.merge("duplicate_frames", 1, Integer::sum);
        }
        if (step.state() != null) {
            turnStore.put(key, step.state());
        }
        step.signal().ifPresent(s -> signalStore.put(EvidenceAssembler.signalKey(key, s.seq()), s));
        List<SessionEvent> out = new ArrayList<>(step.events());
        if (step.closesTurn()) {
            ClosedTurn closed = assembler.assemble(step.state(), signalStore
                    .subMap(EvidenceAssembler.signalRangeFrom(key), true, EvidenceAssembler.signalRangeTo(key), true)
                    .values());
            closedTurns.put(key, closed);
            counters.merge("dropped_signals", closed.evidence().droppedSignals(), Integer::sum);
            out.add(TurnOutcomes.outcome(closed, classifier));
        }
        events.addAll(out);
        return out;
    }

    /**
     * Expires every open turn whose last append time is more than {@code idle} before
     * {@code streamTime}, as the stream-time punctuator would.
     *
     * @return the {@link TurnExpired} events
     */
    public List<TurnExpired> expireIdle(Instant streamTime, java.time.Duration idle) {
        List<TurnExpired> out = new ArrayList<>();
        for (Map.Entry<String, TurnState> e : turnStore.entrySet()) {
            TurnState s = e.getValue();
            if (s.open() && !s.lastAppendAt().plus(idle).isAfter(streamTime)) {
                assembler.expire(s, streamTime).ifPresent(x -> {
                    e.setValue(x.state());
                    out.add(x.event());
                    counters.merge("evidence_expired", 1, Integer::sum);
                });
            }
        }
        events.addAll(out);
        return out;
    }

    /** Every session event emitted so far, in emission order. */
    public List<SessionEvent> events() {
        return Collections.unmodifiableList(events);
    }

    /** The outcomes emitted so far, in closing order. */
    public List<TurnOutcome> outcomes() {
        List<TurnOutcome> out = new ArrayList<>();
        for (SessionEvent e : events) {
            if (e instanceof TurnOutcome o) {
                out.add(o);
            }
        }
        return out;
    }

    /** The assembled evidence of each closed turn, by turn key. */
    public Map<String, ClosedTurn> closedTurns() {
        return Collections.unmodifiableMap(closedTurns);
    }

    /** The turn store, by turn key. */
    public Map<String, TurnState> turns() {
        return Collections.unmodifiableMap(turnStore);
    }

    /** Counters: {@code late_after_close}, {@code duplicate_frames}, {@code dropped_signals}, {@code evidence_expired}. */
    public int counter(String name) {
        return counters.getOrDefault(name, 0);
    }
}
