package io.recourse.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.recourse.classification.StubClassifier;
import io.recourse.classification.TurnOutcomes;
import io.recourse.ingress.Frame;
import io.recourse.ingress.Phase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.quicktheories.generators.Generate;

/**
 * The evidence processor writes the turn state only when a frame changes it (DESIGN §4: a frame
 * with nothing that must survive a crash writes nothing). Under {@code exactly_once_v2} a crash
 * rolls the stores back to the last commit and the frames are replayed from the committed offset,
 * with an empty decoded-state cache; so "crash at any frame, restore from what was written,
 * replay" must give the same outcomes, events, closed turns and stored state as no crash. This is
 * checked over a model of the processor's writes ({@link Model}: the written store, the cache it
 * reads, the signal store, the outputs in order) for every corpus sequence at every commit point,
 * and for generated turns (chunks, thoughts, tool calls, metadata-only updates, stderr, failure
 * markers, duplicates, swapped neighbours, append-time gaps around {@link EvidenceAssembler#LAST_APPEND_GRANULARITY}).
 */
public class CrashReplayProperties {

    private static final long SEED = 0x4352_4153_4805L;
    private static final Duration IDLE = Duration.ofHours(2);
    private static final List<SequenceCorpus.Line> LINES = SequenceCorpus.lines();
    private static final long[] GAPS_MS = {0, 1, 1_000, 30_000, 59_999, 60_000, 61_000, 300_000};

    /** The streaming processor's writes and outputs over maps (EvidenceProcessor, without Kafka). */
    static final class Model {
        final EvidenceAssembler assembler;
        /** What the turn store (and its changelog) holds: only written states. */
        final Map<String, TurnState> store = new HashMap<>();
        /** What the processor reads: its decoded-state cache over the store. */
        final Map<String, TurnState> cache = new HashMap<>();
        final TreeMap<String, Signal> signals = new TreeMap<>();
        final List<Object> outputs = new ArrayList<>();
        int writes;

        Model() {
            this(new EvidenceAssembler());
        }

        Model(EvidenceAssembler assembler) {
            this.assembler = assembler;
        }

        /** The state after a crash: the stores as committed, an empty cache, the outputs committed so far. */
        Model restored() {
            Model m = new Model();
            m.store.putAll(store);
            m.signals.putAll(signals);
            m.outputs.addAll(outputs);
            return m;
        }

        void feed(Frame f, Instant appendedAt) {
            String key = f.turnKey();
            TurnState before = f.promptGeneration() == 0 ? null : cache.containsKey(key) ? cache.get(key) : store.get(key);
            FrameStep step = assembler.accept(before, f, appendedAt);
            if (step.state() == null) {
                outputs.addAll(step.events());
                return;
            }
            if (step.duplicate()) {
                return;
            }
            if (step.lateAfterClose()) {
                put(key, step.state());
                return;
            }
            if (step.state() == before) {
                cache.put(key, before);
                return;
            }
            TurnState state = step.state();
            if (!step.closesTurn()) {
                step.signal().ifPresent(s -> signals.put(EvidenceAssembler.signalKey(key, s.seq()), s));
            }
            for (long seq : step.evictedSeqs()) {
                signals.remove(EvidenceAssembler.signalKey(key, seq));
            }
            outputs.addAll(step.events());
            put(key, step.closesTurn() ? state.closedMarker() : state);
            if (step.closesTurn()) {
                List<Signal> stored = new ArrayList<>(signals.subMap(EvidenceAssembler.signalRangeFrom(key), true,
                        EvidenceAssembler.signalRangeTo(key), true).values());
                step.signal().ifPresent(stored::add); // the closing frame's signal is passed, not stored
                ClosedTurn closed = assembler.assemble(state, stored);
                outputs.add(closed);
                outputs.add(TurnOutcomes.outcome(closed, new StubClassifier()));
            }
        }

        /** The idle punctuator once every turn has been quiet for the idle bound. */
        void expireAll() {
            for (String key : new ArrayList<>(new TreeMap<>(store).keySet())) {
                TurnState s = cache.containsKey(key) ? cache.get(key) : store.get(key);
                if (s.open()) {
                    Instant at = s.lastAppendAt().plus(IDLE);
                    assembler.expire(s, at).ifPresent(x -> {
                        put(key, x.state().closedMarker());
                        outputs.add(x.event());
                    });
                }
            }
        }

        private void put(String key, TurnState state) {
            store.put(key, state);
            cache.put(key, state);
            writes++;
        }
    }

    @Test
    public void everyCorpusSequenceCrashedAtEveryFrameReplaysToTheSameOutputs() {
        Random gaps = new Random(SEED);
        for (SequenceCorpus.Line line : LINES) {
            List<Frame> frames = line.frames();
            List<Instant> at = appendTimes(frames.size(), gaps);
            checkEveryCrashPoint(line.name(), frames, at);
        }
    }

    @Test
    public void generatedTurnsCrashedAtEveryFrameReplayToTheSameOutputs() {
        qt().withFixedSeed(SEED).withExamples(150).forAll(longs().all(), integers().between(1, 40)).checkAssert((seed, n) -> {
            Random rnd = new Random(seed);
            List<Frame> frames = generatedTurn(rnd, n);
            checkEveryCrashPoint("generated " + seed + "/" + n, frames, appendTimes(frames.size(), rnd));
        });
    }

    @Test
    public void turnsOfEffectRunsCrashedAtEveryFrameReplayToTheSameOutputs() {
        qt().withFixedSeed(SEED + 3).withExamples(150).forAll(longs().all(), integers().between(1, 12)).checkAssert((seed, n) -> {
            Random rnd = new Random(seed);
            List<Frame> frames = runsTurn(rnd, n);
            checkEveryCrashPoint("runs " + seed + "/" + n, frames, appendTimes(frames.size(), rnd));
        });
    }

    @Test
    public void theWriteRuleLosesNothingAgainstAdvancingTheStateOnEveryFrame() {
        Random gaps = new Random(SEED + 1);
        for (SequenceCorpus.Line line : LINES) {
            checkSameOutputsAsEveryFrame(line.name(), line.frames(), appendTimes(line.frames().size(), gaps));
        }
        qt().withFixedSeed(SEED).withExamples(300).forAll(longs().all(), integers().between(1, 40)).checkAssert((seed, n) -> {
            Random rnd = new Random(seed);
            List<Frame> frames = generatedTurn(rnd, n);
            checkSameOutputsAsEveryFrame("generated " + seed + "/" + n, frames, appendTimes(frames.size(), rnd));
        });
    }

    /**
     * Same outputs as the assembler that advances the state on every frame, except that an
     * expired turn's last append time (and so its expiry) may be earlier by less than the
     * granularity.
     */
    private static void checkSameOutputsAsEveryFrame(String name, List<Frame> frames, List<Instant> at) {
        Model rule = new Model();
        Model every = new Model(EvidenceAssembler.advancingOnEveryFrame(EvidenceBounds.DEFAULTS));
        for (int i = 0; i < frames.size(); i++) {
            rule.feed(frames.get(i), at.get(i));
            every.feed(frames.get(i), at.get(i));
        }
        rule.expireAll();
        every.expireAll();
        assertThat(rule.outputs).as(name).hasSameSizeAs(every.outputs);
        for (int i = 0; i < rule.outputs.size(); i++) {
            Object r = rule.outputs.get(i);
            Object e = every.outputs.get(i);
            if (r instanceof TurnExpired re && e instanceof TurnExpired ee) {
                assertThat(re.context()).as(name).isEqualTo(ee.context());
                assertThat(re.lastAppendAt()).as(name).isBeforeOrEqualTo(ee.lastAppendAt())
                        .isAfter(ee.lastAppendAt().minus(EvidenceAssembler.LAST_APPEND_GRANULARITY));
            } else {
                assertThat(r).as(name + ": output " + i).isEqualTo(e);
            }
        }
        assertThat(rule.writes).as(name + ": writes").isLessThanOrEqualTo(every.writes);
    }

    /**
     * A tool/thought run is marked once (by its first update, DESIGN §4): for frames that arrive in
     * seq order (duplicates included) the outputs are those of marking every tool/thought update, on
     * every corpus sequence put in seq order and 600 generated turns — except that a duplicate of an
     * unmarked update is not recognized as a duplicate, so (like any frame) it moves the last append
     * time an expiry reads. (A message chunk arriving after a later update of the run it falls into
     * is where the two differ otherwise: see DESIGN §4.)
     */
    @Test
    public void markingEachToolOrThoughtRunOnceChangesNoOutputForFramesInSeqOrder() {
        Random gaps = new Random(SEED + 2);
        for (SequenceCorpus.Line line : LINES) {
            List<Frame> frames = inSeqOrder(line.frames());
            checkSameOutputsAsMarkingEveryEffect(line.name(), frames, appendTimes(frames.size(), gaps));
        }
        qt().withFixedSeed(SEED).withExamples(300).forAll(longs().all(), integers().between(1, 40)).checkAssert((seed, n) -> {
            Random rnd = new Random(seed);
            List<Frame> frames = inSeqOrder(generatedTurn(rnd, n));
            checkSameOutputsAsMarkingEveryEffect("generated " + seed + "/" + n, frames, appendTimes(frames.size(), rnd));
        });
        qt().withFixedSeed(SEED + 4).withExamples(300).forAll(longs().all(), integers().between(1, 12)).checkAssert((seed, n) -> {
            Random rnd = new Random(seed);
            List<Frame> frames = inSeqOrder(runsTurn(rnd, n));
            checkSameOutputsAsMarkingEveryEffect("runs " + seed + "/" + n, frames, appendTimes(frames.size(), rnd));
        });
    }

    @Test
    public void toolAndThoughtUpdatesAfterTheFirstOfTheirRunWriteNothing() {
        Model m = new Model();
        Instant t = Frames.T0;
        m.feed(Frames.prompt(1), t);
        m.feed(Frames.toolCall(2), t.plusMillis(1));
        int writes = m.writes;
        m.feed(Frames.toolCall(3), t.plusMillis(2));
        m.feed(Frames.update(4, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"status\":\"completed\"}"),
                t.plusMillis(3));
        assertThat(m.writes).as("tool updates continuing a tool run").isEqualTo(writes);
        m.feed(Frames.thought(5, "Reading the router module"), t.plusMillis(4));
        assertThat(m.writes).as("a thought's flag flips (its first)").isEqualTo(writes + 1);
        m.feed(Frames.thought(6, "Reading the tests"), t.plusMillis(5));
        assertThat(m.writes).as("a thought continuing a tool/thought run").isEqualTo(writes + 1);
        m.feed(Frames.chunk(7, "Done."), t.plusMillis(6));
        m.feed(Frames.toolCall(8), t.plusMillis(7));
        assertThat(m.writes).as("a message chunk, and the tool call that ends its run").isEqualTo(writes + 3);
        m.feed(Frames.endTurn(9), t.plusMillis(8));
        ClosedTurn closed = (ClosedTurn) m.outputs.get(m.outputs.size() - 2);
        assertThat(closed.finalChunk()).as("the message run was ended by the tool call").isNull();
    }

    private static void checkSameOutputsAsMarkingEveryEffect(String name, List<Frame> frames, List<Instant> at) {
        Model rule = new Model(EvidenceAssembler.advancingOnEveryFrame(EvidenceBounds.DEFAULTS));
        Model every = new Model(EvidenceAssembler.markingEveryEffect(EvidenceBounds.DEFAULTS));
        for (int i = 0; i < frames.size(); i++) {
            rule.feed(frames.get(i), at.get(i));
            every.feed(frames.get(i), at.get(i));
        }
        rule.expireAll();
        every.expireAll();
        assertThat(rule.outputs).as(name).hasSameSizeAs(every.outputs);
        Instant lastAppend = at.get(at.size() - 1);
        for (int i = 0; i < rule.outputs.size(); i++) {
            Object r = rule.outputs.get(i);
            Object e = every.outputs.get(i);
            if (r instanceof TurnExpired re && e instanceof TurnExpired ee) {
                // a duplicate of an unmarked update is not recognized as one: like any frame, it is activity
                assertThat(re.context()).as(name).isEqualTo(ee.context());
                assertThat(re.lastAppendAt()).as(name).isAfterOrEqualTo(ee.lastAppendAt()).isBeforeOrEqualTo(lastAppend);
            } else {
                assertThat(r).as(name + ": output " + i).isEqualTo(e);
            }
        }
    }

    /** The frames sorted by seq (stable: a duplicate stays next to its original). */
    private static List<Frame> inSeqOrder(List<Frame> frames) {
        List<Frame> out = new ArrayList<>(frames);
        out.sort(java.util.Comparator.comparingLong(Frame::seq));
        return out;
    }

    @Test
    public void metadataOnlyUpdatesWithinTheGranularityWriteNothing() {
        Model m = new Model();
        Instant t = Frames.T0;
        m.feed(Frames.prompt(1), t);
        m.feed(Frames.chunk(2, "Reading the files."), t.plusMillis(10));
        int writes = m.writes;
        m.feed(usage(3), t.plusSeconds(20));
        m.feed(usage(4), t.plusSeconds(59));
        assertThat(m.writes).as("metadata-only updates within a minute").isEqualTo(writes);
        m.feed(usage(5), t.plusSeconds(61));
        assertThat(m.writes).as("a minute after the stored last append it moves").isEqualTo(writes + 1);
        assertThat(m.store.get("s1/1").lastAppendAt()).isEqualTo(t.plusSeconds(61));
        m.feed(Frames.toolCall(6), t.plusSeconds(62));
        assertThat(m.writes).as("an effect flag's first flip is written").isEqualTo(writes + 2);
    }

    private static void checkEveryCrashPoint(String name, List<Frame> frames, List<Instant> at) {
        Model reference = new Model();
        List<Model> snapshots = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            snapshots.add(reference.restored());
            reference.feed(frames.get(i), at.get(i));
            assertThat(reference.store).as(name + ": the store is the cache after frame " + i).isEqualTo(reference.cache);
        }
        snapshots.add(reference.restored());
        reference.expireAll();
        for (int commit = 0; commit <= frames.size(); commit++) {
            Model crashed = snapshots.get(commit);
            for (int i = commit; i < frames.size(); i++) {
                crashed.feed(frames.get(i), at.get(i));
            }
            crashed.expireAll();
            assertThat(crashed.outputs).as(name + ": crash after commit at frame " + commit).isEqualTo(reference.outputs);
            assertThat(crashed.store).as(name + ": stored state after a crash at frame " + commit).isEqualTo(reference.store);
        }
    }

    private static List<Instant> appendTimes(int n, Random rnd) {
        List<Instant> out = new ArrayList<>(n);
        Instant t = Frames.T0;
        for (int i = 0; i < n; i++) {
            t = t.plusMillis(GAPS_MS[rnd.nextInt(GAPS_MS.length)]);
            out.add(t);
        }
        return out;
    }

    private static Frame usage(long seq) {
        return Frames.update(seq, "{\"sessionUpdate\":\"usage_update\",\"used\":" + (1000 + seq) + ",\"size\":200000}");
    }

    /**
     * A turn of {@code n} runs (1–6 frames each) of one kind — message chunks (ordinary or failure
     * text), thoughts, tool calls and updates, metadata-only updates — between its prompt and
     * (mostly) a terminal frame, then the noise of {@link #generatedTurn}: a late chunk, swapped
     * neighbours, duplicates. Long effect runs are where a run's later updates set no mark.
     */
    private static List<Frame> runsTurn(Random rnd, int n) {
        List<Frame> inner = new ArrayList<>();
        String[] texts = {"I'll read the README first.", "Selected model is at capacity. Please try a different model.",
                "API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}", "Done."};
        long seq = 2;
        for (int r = 0; r < n; r++) {
            int kind = rnd.nextInt(5);
            int len = 1 + rnd.nextInt(6);
            for (int i = 0; i < len; i++, seq++) {
                inner.add(switch (kind) {
                    case 0 -> Frames.chunk(seq, texts[rnd.nextInt(texts.length)]);
                    case 1 -> Frames.thought(seq, "Reading the router module");
                    case 2 -> Frames.toolCall(seq);
                    case 3 -> Frames.update(seq, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"status\":\"completed\"}");
                    default -> rnd.nextBoolean() ? usage(seq) : Frames.stderr(seq, "warning: retrying request");
                });
            }
        }
        List<Frame> frames = new ArrayList<>();
        frames.add(Frames.prompt(1));
        frames.addAll(inner);
        switch (rnd.nextInt(4)) {
            case 0 -> frames.add(Frames.endTurn(seq));
            case 1 -> frames.add(Frames.error(seq, "Selected model is at capacity"));
            case 2 -> frames.add(Frames.result(seq, "cancelled"));
            default -> {
                // left open: the idle bound closes it
            }
        }
        return withNoise(rnd, frames, seq + 1);
    }

    /** A turn of {@code n} inner frames between its prompt and (mostly) a terminal frame, with noise. */
    private static List<Frame> generatedTurn(Random rnd, int n) {
        List<Frame> frames = new ArrayList<>();
        frames.add(Frames.prompt(1));
        String[] texts = {"I'll read the README first.", "Selected model is at capacity. Please try a different model.",
                "The service has two endpoints.", "API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}", " "};
        for (int i = 0; i < n; i++) {
            long seq = 2 + i;
            frames.add(switch (rnd.nextInt(9)) {
                case 0, 1 -> Frames.chunk(seq, texts[rnd.nextInt(texts.length)]);
                case 2 -> Frames.thought(seq, "Reading the router module");
                case 3 -> Frames.toolCall(seq);
                case 4 -> Frames.update(seq, "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":\"t1\",\"status\":\"completed\"}");
                case 5 -> usage(seq);
                case 6 -> Frames.update(seq, "{\"sessionUpdate\":\"plan\",\"entries\":[]}");
                case 7 -> Frames.stderr(seq, "warning: retrying request");
                default -> rnd.nextInt(4) == 0 ? Frames.codexMarker(seq)
                        : Frames.frame(seq, io.recourse.ingress.FrameSource.LIFECYCLE, "{\"event\":\"heartbeat\"}")
                                .phase(Phase.STREAMING).build();
            });
        }
        long last = 2 + n;
        switch (rnd.nextInt(5)) {
            case 0 -> frames.add(Frames.endTurn(last));
            case 1 -> frames.add(Frames.error(last, "Selected model is at capacity"));
            case 2 -> frames.add(Frames.result(last, "cancelled"));
            case 3 -> frames.add(Frames.endTurn(last)); // and late frames after it
            default -> {
                // left open: the idle bound closes it
            }
        }
        return withNoise(rnd, frames, last + 1);
    }

    /**
     * {@code frames} with a third of the time a late chunk at {@code lateSeq}, then neighbours after the
     * prompt swapped (1 in 10) and frames duplicated (1 in 15): delivery noise. Mutates and returns {@code frames}.
     */
    private static List<Frame> withNoise(Random rnd, List<Frame> frames, long lateSeq) {
        if (rnd.nextInt(3) == 0) {
            frames.add(Frames.chunk(lateSeq, "late"));
        }
        for (int i = 1; i + 2 < frames.size(); i++) {
            if (rnd.nextInt(10) == 0) {
                Frame a = frames.get(i);
                frames.set(i, frames.get(i + 1));
                frames.set(i + 1, a);
            }
        }
        for (int i = frames.size() - 1; i >= 1; i--) {
            if (rnd.nextInt(15) == 0) {
                frames.add(i, frames.get(i));
            }
        }
        return frames;
    }
}
