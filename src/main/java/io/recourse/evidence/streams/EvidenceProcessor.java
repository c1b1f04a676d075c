package io.recourse.evidence.streams;

import io.recourse.avro.StoredSignal;
import io.recourse.avro.TurnStateValue;
import io.recourse.evidence.ClosedTurn;
import io.recourse.evidence.EvidenceAssembler;
import io.recourse.evidence.FrameStep;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.Signal;
import io.recourse.evidence.TurnState;
import io.recourse.evidence.streams.EvidenceTimeIndex.Entry;
import io.recourse.evidence.streams.EvidenceTimeIndex.Kind;
import io.recourse.ingress.Frame;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * The evidence processor (DESIGN §4): the streaming plumbing around the pure
 * {@link EvidenceAssembler}. Per admitted frame (key {@code <session_id>/<prompt_generation>},
 * read where it lands) it loads the turn from the turn store, applies the frame, and — only when
 * the step changed the state ({@link EvidenceAssembler#accept} returns the same state otherwise:
 * nothing is written for the frame) — writes a kept signal into the signal window store under
 * {@link EvidenceAssembler#signalKey} at the record's timestamp (not the closing frame's, which is
 * assembled at once), forwards the step's session events, writes the state, and on close fetches
 * the turn's signals with one key-range {@code fetch(turn#, turn#~, firstAppend, lastAppend)},
 * assembles and forwards the
 * {@link ClosedTurn} for the classification processor right after it (DESIGN §5), which turns it
 * into the TurnOutcome. Everything is forwarded keyed by {@code session_id}.
 *
 * <p>Expiry is observed on stream time: a turn's first frame arms an {@code IDLE} entry in the time
 * index at {@code first append + idle bound}; a {@code STREAM_TIME} punctuator scans the index from
 * its start up to stream time (never the whole turn store). A turn that saw later frames is re-armed
 * at {@code last append + idle bound}; a turn still idle is closed with the marker
 * {@code expired}, counted ({@code evidence_expired}) and emits {@code TurnExpired}. Closing deletes
 * the first {@code IDLE} entry and arms a {@code PURGE} entry at {@code closed + retention}, which
 * removes the closed turn's entry.
 * Frames of a closed turn are counted ({@code late_after_close}) and change nothing else.
 *
 * <p>Metrics (DESIGN §10, {@link RecourseMeters}): every fired time-index entry records its lag behind stream
 * time under {@code recourse_timer_lag_seconds{owner=evidence, kind=idle|purge}}.
 *
 * <p><b>Decoded turn-state cache</b> (reading and decoding the turn store's value was a
 * tenth of the stream thread). The processor keeps up to {@code turnCacheEntries} decoded states
 * and up to {@code turnCacheBytes} of their estimated size ({@link TurnStateMapping#estimatedBytes}),
 * least recently used first out ({@code 0} disables it), so large valid turns cannot exhaust the
 * heap. It is a write-through view of the turn
 * store, never a replacement: every write goes to the store first and then to the cache (a
 * delete removes the entry), so the store, its changelog and the cache hold the same state; the
 * cached value is {@link TurnStateMapping#stored} of what was put — the state exactly as the store
 * would decode it (instants at millisecond precision), so a hit and a store read are equal.
 * Reads try the cache, then the store. Only this processor writes the turn store (it is
 * connected to no other), so no entry can go stale while the task runs.
 *
 * <p>Why it is safe under {@code exactly_once_v2}: the cache may hold states of the open
 * transaction. When that transaction aborts (task corrupted, producer fenced, task migrated),
 * Kafka Streams closes the task dirty — calling {@link #close()} — and then rolls its stores back
 * to the last commit (wiping and restoring them from the changelog) and re-initializes the same
 * processor instance, calling {@link #init} again before any record is processed. Both clear
 * the cache, so a revived or restored task reads only the store's (committed) state, and the
 * records replayed from the last committed offset see exactly what they saw the first time. A
 * task moved to another instance starts there with an empty cache. The cache is per task (one
 * processor instance per task, one thread at a time), so it needs no synchronization.
 */
public final class EvidenceProcessor extends ContextualProcessor<String, Frame, String, EvidenceOutput> {

    private static final byte[] PRESENT = new byte[0];
    /** The {@code owner} tag of this processor's timer lag (measured on stream time). */
    static final String TIMER_OWNER = "evidence";

    private final EvidenceAssembler assembler;
    private final EvidenceCounters counters;
    private final RecourseMeters meters;
    private final Duration idle;
    private final Duration retention;
    private final Duration punctuationInterval;
    private final int turnCacheEntries;
    private final long turnCacheBytes;
    /** Estimated bytes of the cached states ({@link TurnStateMapping#estimatedBytes}). */
    private long turnCacheUsed;
    /** turn key → decoded state, access order; {@code null} when disabled. */
    private final LinkedHashMap<String, Cached> turnCache;

    /** A cached state and its estimated size in bytes. */
    private record Cached(TurnState state, long bytes) {
    }

    private WindowStore<String, StoredSignal> signals;
    private KeyValueStore<String, TurnStateValue> turns;
    private KeyValueStore<Bytes, byte[]> timeIndex;

    EvidenceProcessor(EvidenceAssembler assembler, RecourseMeters meters, Duration idle,
                      Duration retention, Duration punctuationInterval) {
        this(assembler, meters, idle, retention, punctuationInterval, 0, 0);
    }

    /**
     * @param turnCacheEntries decoded turn states cached per task ({@code ≥ 0}; {@code 0} = no
     *                         cache), {@code recourse.evidence.turn.cache.entries}
     * @param turnCacheBytes   estimated bytes of the cached states per task ({@code ≥ 0}; {@code 0} =
     *                         no cache), {@code recourse.evidence.turn.cache.bytes}
     * @throws IllegalArgumentException when either is negative
     */
    EvidenceProcessor(EvidenceAssembler assembler, RecourseMeters meters, Duration idle,
                      Duration retention, Duration punctuationInterval, int turnCacheEntries, long turnCacheBytes) {
        if (turnCacheEntries < 0 || turnCacheBytes < 0) {
            throw new IllegalArgumentException("turn cache bounds must be ≥ 0: " + turnCacheEntries + ", " + turnCacheBytes);
        }
        this.turnCacheEntries = turnCacheEntries;
        this.turnCacheBytes = turnCacheBytes;
        this.turnCache = turnCacheEntries == 0 || turnCacheBytes == 0 ? null
                : new LinkedHashMap<>(Math.min(turnCacheEntries, 1024) * 2, 0.75f, true);
        this.assembler = assembler;
        this.meters = meters;
        this.counters = meters.evidence();
        this.idle = idle;
        this.retention = retention;
        this.punctuationInterval = punctuationInterval;
    }

    @Override
    public void init(ProcessorContext<String, EvidenceOutput> context) {
        super.init(context);
        clearTurnCache(); // a revived task (EOS abort → close dirty → re-init) must not see uncommitted states
        signals = context.getStateStore(EvidenceTopology.SIGNAL_STORE);
        turns = context.getStateStore(EvidenceTopology.TURN_STORE);
        timeIndex = context.getStateStore(EvidenceTopology.TIME_INDEX_STORE);
        context.schedule(punctuationInterval, PunctuationType.STREAM_TIME, this::punctuate);
    }

    @Override
    public void process(Record<String, Frame> record) {
        Frame frame = record.value();
        long timestamp = record.timestamp();
        Instant appendedAt = Instant.ofEpochMilli(timestamp);
        String turnKey = EvidenceAssembler.turnKey(frame.sessionId(), frame.promptGeneration());
        TurnState before = frame.promptGeneration() == 0 ? null : load(turnKey);
        FrameStep step = assembler.accept(before, frame, appendedAt);
        if (step.state() == null) {
            forwardEvents(step.events(), frame.sessionId(), timestamp);
            return;
        }
        if (step.duplicate()) {
            counters.duplicate();
            return;
        }
        if (step.lateAfterClose()) {
            counters.lateAfterClose();
            putTurn(turnKey, step.state());
            return;
        }
        if (step.state() == before) {
            return; // nothing that must survive a crash changed (DESIGN §4): no write
        }
        TurnState state = step.state();
        if (!step.closesTurn()) {
            // the closing frame's signal is assembled right below and never read again: not stored
            step.signal().ifPresent(s -> signals.put(EvidenceAssembler.signalKey(turnKey, s.seq()), AvroMapping.toStored(s), timestamp));
        }
        if (before != null && !step.evictedSeqs().isEmpty()) {
            deleteSignals(turnKey, step.evictedSeqs(), before.firstAppendAt().toEpochMilli(), timestamp);
        }
        counters.droppedSignals(state.droppedSignals() - (before == null ? 0 : before.droppedSignals()));
        if (before == null) {
            timeIndex.put(EvidenceTimeIndex.key(appendedAt.plus(idle), Kind.IDLE, turnKey), PRESENT);
        }
        forwardEvents(step.events(), frame.sessionId(), timestamp);
        // a closed turn keeps only its marker: assembling below reads the full state
        putTurn(turnKey, step.closesTurn() ? state.closedMarker() : state);
        if (step.closesTurn()) {
            close(turnKey, state, step.signal(), timestamp);
        }
    }

    /**
     * Deletes the stored signals the bounds no longer keep (DESIGN §4: the signal store holds at
     * most a turn's bounded evidence). A window-store entry is deleted by putting {@code null} at
     * its own timestamp, so each is looked up in the turn's append-time range first.
     */
    private void deleteSignals(String turnKey, List<Long> seqs, long from, long to) {
        for (long seq : seqs) {
            String key = EvidenceAssembler.signalKey(turnKey, seq);
            List<Long> at = new ArrayList<>(1);
            try (WindowStoreIterator<StoredSignal> it = signals.fetch(key, from, to)) {
                it.forEachRemaining(kv -> at.add(kv.key));
            }
            for (long t : at) {
                signals.put(key, null, t);
            }
        }
    }

    /**
     * Assembles and forwards the closed turn from its stored signals plus the closing frame's own
     * signal (passed in, never stored), deletes the stored ones (nothing reads them again), then swaps the turn's first {@code IDLE} entry for its
     * {@code PURGE} entry (an entry re-armed later fires, finds the turn closed and is dropped).
     */
    private void close(String turnKey, TurnState state, java.util.Optional<Signal> closing, long timestamp) {
        List<Signal> stored = new ArrayList<>();
        List<Windowed<String>> read = new ArrayList<>();
        try (KeyValueIterator<Windowed<String>, StoredSignal> it = signals.fetch(EvidenceAssembler.signalRangeFrom(turnKey),
                EvidenceAssembler.signalRangeTo(turnKey), state.firstAppendAt().toEpochMilli(), state.lastAppendAt().toEpochMilli())) {
            it.forEachRemaining(kv -> {
                stored.add(AvroMapping.fromStored(kv.value));
                read.add(kv.key);
            });
        }
        closing.ifPresent(stored::add);
        ClosedTurn closed = assembler.assemble(state, stored);
        for (Windowed<String> k : read) {
            signals.put(k.key(), null, k.window().start()); // read once: a closed turn's signals are not kept
        }
        context().forward(new Record<>(state.context().sessionId(), new EvidenceOutput.Closed(closed), timestamp));
        timeIndex.delete(EvidenceTimeIndex.key(state.firstAppendAt().plus(idle), Kind.IDLE, turnKey));
        timeIndex.put(EvidenceTimeIndex.key(state.closedAt().plus(retention), Kind.PURGE, turnKey), PRESENT);
    }

    /** Handles every time-index entry due at or before stream time {@code now} (epoch ms), in time order. */
    void punctuate(long now) {
        List<Bytes> due = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = timeIndex.range(null, EvidenceTimeIndex.upTo(now))) {
            it.forEachRemaining(kv -> due.add(kv.key));
        }
        Instant streamTime = Instant.ofEpochMilli(now);
        for (Bytes key : due) {
            timeIndex.delete(key);
            Entry entry = EvidenceTimeIndex.decode(key);
            meters.timerLag(TIMER_OWNER, entry.kind().name().toLowerCase(Locale.ROOT),
                    Duration.between(entry.due(), streamTime));
            TurnState state = load(entry.turnKey());
            if (state == null) {
                continue;
            }
            switch (entry.kind()) {
                case IDLE -> checkIdle(entry.turnKey(), state, streamTime);
                case PURGE -> {
                    if (!state.open() && !state.closedAt().plus(retention).isAfter(streamTime)) {
                        deleteTurn(entry.turnKey());
                    }
                }
            }
        }
    }

    private void checkIdle(String turnKey, TurnState state, Instant streamTime) {
        if (!state.open()) {
            return;
        }
        Instant idleAt = state.lastAppendAt().plus(idle);
        if (idleAt.isAfter(streamTime)) {
            timeIndex.put(EvidenceTimeIndex.key(idleAt, Kind.IDLE, turnKey), PRESENT);
            return;
        }
        assembler.expire(state, streamTime).ifPresent(expired -> {
            counters.expired();
            putTurn(turnKey, expired.state().closedMarker());
            timeIndex.put(EvidenceTimeIndex.key(streamTime.plus(retention), Kind.PURGE, turnKey), PRESENT);
            forwardEvents(List.of(expired.event()), state.context().sessionId(), streamTime.toEpochMilli());
        });
    }

    private void forwardEvents(List<? extends SessionEvent> events, String sessionId, long timestamp) {
        for (SessionEvent e : events) {
            context().forward(new Record<>(sessionId, new EvidenceOutput.Event(e), timestamp));
        }
    }

    @Override
    public void close() {
        clearTurnCache();
        super.close();
    }

    /** The turn's state: from the cache, else decoded from the turn store (and then cached); {@code null} when absent. */
    private TurnState load(String turnKey) {
        if (turnCache != null) {
            Cached cached = turnCache.get(turnKey);
            if (cached != null) {
                return cached.state();
            }
        }
        TurnStateValue v = turns.get(turnKey);
        if (v == null) {
            return null;
        }
        TurnState state = TurnStateMapping.fromAvro(v);
        cache(turnKey, state);
        return state;
    }

    /**
     * Caches {@code state}, then evicts least recently used states while the cache holds more than
     * {@code turnCacheEntries} states or more than {@code turnCacheBytes} estimated bytes (a state
     * larger than the byte bound on its own is not cached).
     */
    private void cache(String turnKey, TurnState state) {
        if (turnCache == null) {
            return;
        }
        long bytes = TurnStateMapping.estimatedBytes(state);
        Cached previous = turnCache.remove(turnKey);
        if (previous != null) {
            turnCacheUsed -= previous.bytes();
        }
        if (bytes > turnCacheBytes) {
            return;
        }
        turnCache.put(turnKey, new Cached(state, bytes));
        turnCacheUsed += bytes;
        var it = turnCache.values().iterator();
        while ((turnCache.size() > turnCacheEntries || turnCacheUsed > turnCacheBytes) && it.hasNext()) {
            turnCacheUsed -= it.next().bytes();
            it.remove();
        }
    }

    /** Writes the turn store, then (only once the store accepted it) the cache. */
    private void putTurn(String turnKey, TurnState state) {
        turns.put(turnKey, TurnStateMapping.toAvro(state));
        if (turnCache != null) {
            cache(turnKey, TurnStateMapping.stored(state));
        }
    }

    /** Deletes from the turn store, then from the cache. */
    private void deleteTurn(String turnKey) {
        turns.delete(turnKey);
        if (turnCache != null) {
            Cached gone = turnCache.remove(turnKey);
            if (gone != null) {
                turnCacheUsed -= gone.bytes();
            }
        }
    }

    private void clearTurnCache() {
        if (turnCache != null) {
            turnCache.clear();
            turnCacheUsed = 0;
        }
    }

    /** The cached decoded state of {@code turnKey}, or {@code null} (tests: a hit equals a store read). */
    TurnState cachedTurn(String turnKey) {
        Cached c = turnCache == null ? null : turnCache.get(turnKey);
        return c == null ? null : c.state();
    }

    /** Estimated bytes of the decoded turn-state cache (tests: the byte bound). */
    long turnCacheBytesUsed() {
        return turnCacheUsed;
    }

    /** Entries in the decoded turn-state cache (tests: the bound and the clearing on init). */
    int turnCacheSize() {
        return turnCache == null ? 0 : turnCache.size();
    }
}
