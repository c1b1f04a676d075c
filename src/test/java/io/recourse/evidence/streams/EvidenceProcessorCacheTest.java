package io.recourse.evidence.streams;

import static io.recourse.evidence.streams.EvidenceDriver.MAPPER;
import static io.recourse.evidence.streams.EvidenceDriver.T0;
import static io.recourse.evidence.streams.EvidenceDriver.chunk;
import static io.recourse.evidence.streams.EvidenceDriver.endTurn;
import static io.recourse.evidence.streams.EvidenceDriver.prompt;
import static io.recourse.evidence.streams.EvidenceDriver.stderr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.recourse.avro.StoredSignal;
import io.recourse.avro.TurnStateValue;
import io.recourse.classification.StubClassifier;
import io.recourse.classification.streams.ClassificationOutput;
import io.recourse.classification.streams.ClassificationProcessor;
import io.recourse.evidence.EvidenceAssembler;
import io.recourse.evidence.TurnProgressed;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.kit.AvroSerde;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The evidence processor's decoded turn-state cache: a write-through view of the turn
 * store that changes nothing observable — same forwarded records, store contents and counters with
 * the cache off, tiny (constant eviction) or large — and that a re-initialized task (EOS abort →
 * close dirty → stores rolled back → init) never reads.
 */
public class EvidenceProcessorCacheTest {

    private static final Duration IDLE = Duration.ofHours(2);
    private static final Duration RETENTION = Duration.ofHours(6);

    /** One processor on a mock context with in-memory stores using the topology's serdes. */
    public static final class Harness {
        final MockProcessorContext<String, EvidenceOutput> context = new MockProcessorContext<>();
        /** The classification processor right after the evidence processor, as in the topology. */
        final MockProcessorContext<String, ClassificationOutput> classified = new MockProcessorContext<>();
        final ClassificationProcessor classification;
        final EvidenceCounters counters = new EvidenceCounters(new SimpleMeterRegistry());
        final EvidenceProcessor processor;
        final KeyValueStore<String, TurnStateValue> turns;
        final List<String> forwarded = new ArrayList<>();

        final WindowStore<String, StoredSignal> signals;

        Harness(int cacheEntries) {
            this(cacheEntries, 64L * 1024 * 1024);
        }

        Harness(int cacheEntries, long cacheBytes) {
            turns = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(EvidenceTopology.TURN_STORE), Serdes.String(),
                    AvroSerde.of(TurnStateValue.class, TurnStateCoder::write)).withLoggingDisabled().build();
            signals = Stores.windowStoreBuilder(
                    Stores.inMemoryWindowStore(EvidenceTopology.SIGNAL_STORE, RETENTION, EvidenceTopology.SIGNAL_WINDOW, false),
                    Serdes.String(), AvroSerde.of(StoredSignal.class)).withLoggingDisabled().build();
            KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]> index = Stores.keyValueStoreBuilder(
                    Stores.inMemoryKeyValueStore(EvidenceTopology.TIME_INDEX_STORE), Serdes.Bytes(), Serdes.ByteArray())
                    .withLoggingDisabled().build();
            for (var store : List.of(turns, signals, index)) {
                store.init(context.getStateStoreContext(), store);
                context.addStateStore(store);
            }
            RecourseMeters meters = new RecourseMeters(counters);
            processor = new EvidenceProcessor(new EvidenceAssembler(), meters, IDLE, RETENTION, Duration.ofSeconds(1),
                    cacheEntries, cacheBytes);
            processor.init(context);
            classification = new ClassificationProcessor(new StubClassifier(), meters);
            classification.init(classified);
        }

        void process(Frame frame, Instant appendedAt) {
            processor.process(new org.apache.kafka.streams.processor.api.Record<>(
                    EvidenceAssembler.turnKey(frame.sessionId(), frame.promptGeneration()), frame, appendedAt.toEpochMilli()));
            collect();
        }

        void punctuate(Instant streamTime) {
            processor.punctuate(streamTime.toEpochMilli());
            collect();
        }

        private void collect() {
            for (var f : context.forwarded()) {
                classification.process(new org.apache.kafka.streams.processor.api.Record<String, EvidenceOutput>(
                        f.record().key(), f.record().value(), f.record().timestamp(), f.record().headers()));
            }
            context.resetForwards();
            for (var f : classified.forwarded()) {
                forwarded.add(f.record().key() + " @" + f.record().timestamp() + " " + f.record().value());
            }
            classified.resetForwards();
        }

        /** The turn store decoded, by key. */
        Map<String, TurnStateValue> store() {
            Map<String, TurnStateValue> out = new TreeMap<>();
            try (KeyValueIterator<String, TurnStateValue> it = turns.all()) {
                it.forEachRemaining(kv -> out.put(kv.key, kv.value));
            }
            return out;
        }

        /** Every evidence counter. */
        List<Double> counts() {
            return Stream.of(EvidenceCounters.EXPIRED, EvidenceCounters.LATE_AFTER_CLOSE, EvidenceCounters.DUPLICATES,
                    EvidenceCounters.DROPPED_SIGNALS).map(counters::count).toList();
        }
    }

    private static Frame parse(ObjectNode f) {
        String key = f.get("session_id").asText() + "/" + f.get("prompt_generation").asInt();
        try {
            return new FrameParser().parse(key, f.toString().getBytes(StandardCharsets.UTF_8));
        } catch (io.recourse.ingress.FrameRejectedException e) {
            throw new IllegalArgumentException(f.toString(), e);
        }
    }

    // ------------------------------------------------------------------ corpus

    public record Line(String name, List<Frame> frames) {
        @Override
        public String toString() {
            return name;
        }
    }

    public static List<Line> corpus() throws Exception {
        FrameParser parser = new FrameParser();
        List<Line> lines = new ArrayList<>();
        try (InputStream in = EvidenceProcessorCacheTest.class.getResourceAsStream("/corpus/sequences.jsonl")) {
            for (String raw : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (raw.isBlank()) {
                    continue;
                }
                JsonNode line = MAPPER.readTree(raw);
                List<Frame> frames = new ArrayList<>();
                for (JsonNode f : line.get("frames")) {
                    String key = f.get("session_id").asText() + "/" + f.get("prompt_generation").asInt();
                    frames.add(parser.parse(key, MAPPER.writeValueAsBytes(f)));
                }
                lines.add(new Line(line.get("name").asText(), frames));
            }
        }
        return lines;
    }

    /** Feeds the frames (each appended 250 ms after the previous) then lets the idle bound and the retention pass. */
    private static Harness run(int cacheEntries, List<Frame> frames) {
        Harness h = new Harness(cacheEntries);
        Instant at = T0;
        for (Frame f : frames) {
            at = at.plusMillis(250);
            h.process(f, at);
        }
        h.punctuate(at.plus(IDLE).plusSeconds(1));
        h.punctuate(at.plus(RETENTION).plus(IDLE).plusSeconds(2));
        return h;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    public void a_corpus_sequence_gives_the_same_records_store_and_counters_with_or_without_the_cache(Line line) {
        Harness off = run(0, line.frames());

        for (int entries : new int[] {1, 10_000}) {
            Harness on = run(entries, line.frames());

            assertThat(on.forwarded).as(line.name() + " cache " + entries).isEqualTo(off.forwarded);
            assertThat(on.store()).as(line.name() + " cache " + entries).isEqualTo(off.store());
            assertThat(on.counts()).as(line.name() + " cache " + entries).isEqualTo(off.counts());
        }
    }

    @Test
    public void all_corpus_sequences_interleaved_give_the_same_results_with_an_evicting_cache() throws Exception {
        List<Line> lines = corpus();
        List<Frame> interleaved = new ArrayList<>();
        for (int i = 0; ; i++) {
            boolean any = false;
            for (Line l : lines) {
                if (i < l.frames().size()) {
                    interleaved.add(l.frames().get(i));
                    any = true;
                }
            }
            if (!any) {
                break;
            }
        }
        // two turns that never close, so the idle expiry and the purge run through the cache too
        interleaved.add(parse(prompt("s-open", 1, 1)));
        interleaved.add(parse(chunk("s-open", 1, 2, "Still thinking")));
        interleaved.add(parse(prompt("s-open", 2, 1)));
        Harness off = run(0, interleaved);
        assertThat(off.forwarded).anyMatch(r -> r.contains("TurnOutcome[")).anyMatch(r -> r.contains("TurnExpired["));

        for (int entries : new int[] {2, 7, 10_000}) {
            Harness on = run(entries, interleaved);

            assertThat(on.forwarded).as("cache " + entries).isEqualTo(off.forwarded);
            assertThat(on.store()).as("cache " + entries).isEqualTo(off.store());
            assertThat(on.counts()).as("cache " + entries).isEqualTo(off.counts());
        }
    }

    // ------------------------------------------------------------------ bound

    @Test
    public void the_cache_holds_at_most_its_configured_number_of_turns() {
        Harness h = new Harness(3);

        for (int s = 0; s < 10; s++) {
            h.process(parse(prompt("s" + s, 1, 1)), T0.plusMillis(s));
        }

        assertThat(h.processor.turnCacheSize()).isEqualTo(3);
        assertThat(h.store()).hasSize(10);
    }

    @Test
    public void turns_evicted_from_the_cache_still_close_from_the_store() {
        Harness h = new Harness(2);
        for (int s = 0; s < 5; s++) {
            h.process(parse(prompt("s" + s, 1, 1)), T0.plusMillis(s));
        }

        for (int s = 0; s < 5; s++) {
            h.process(parse(endTurn("s" + s, 1, 2, "end_turn")), T0.plusMillis(100 + s));
        }

        assertThat(h.forwarded).filteredOn(r -> r.contains("TurnOutcome[")).hasSize(5);
        assertThat(h.processor.turnCacheSize()).isEqualTo(2);
    }

    @Test
    public void a_disabled_cache_holds_nothing() {
        Harness h = new Harness(0);

        h.process(parse(prompt("s1", 1, 1)), T0);

        assertThat(h.processor.turnCacheSize()).isZero();
    }

    @Test
    public void a_negative_cache_size_is_rejected() {
        assertThatThrownBy(() -> new EvidenceProcessor(new EvidenceAssembler(),
                new RecourseMeters(new EvidenceCounters(new SimpleMeterRegistry())), IDLE, RETENTION, Duration.ofSeconds(1), -1, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    public void the_cache_holds_no_more_than_its_byte_bound_of_estimated_state() {
        Harness h = new Harness(10_000, 20_000);

        for (int i = 0; i < 200; i++) {
            ObjectNode f = prompt("s" + i, 1, 1);
            f.put("workspace_id", "w".repeat(256)).put("task_id", "t".repeat(256));
            h.process(parse(f), T0.plusMillis(i));
        }

        assertThat(h.processor.turnCacheBytesUsed()).isPositive().isLessThanOrEqualTo(20_000);
        assertThat(h.processor.turnCacheSize()).isBetween(1, 199);
        assertThat(h.processor.cachedTurn("s199/1")).as("the latest turn is cached").isNotNull();
        assertThat(h.processor.cachedTurn("s0/1")).as("the oldest turn was evicted").isNull();
    }

    @Test
    public void the_signal_store_holds_at_most_the_bounded_evidence_of_a_turn() {
        Harness h = new Harness(100);
        h.process(parse(prompt("s1", 1, 1)), T0);

        for (int seq = 2; seq < 1_002; seq++) {
            h.process(parse(stderr("s1", 1, seq, "line " + seq)), T0.plusMillis(seq));
        }

        int stored = 0;
        try (var it = h.signals.all()) {
            while (it.hasNext()) {
                it.next();
                stored++;
            }
        }
        assertThat(stored).isLessThanOrEqualTo(new EvidenceAssembler().bounds().maxSignals());
        assertThat(h.counters.count(EvidenceCounters.DROPPED_SIGNALS)).isPositive();
    }

    // ------------------------------------------------------------------ EOS revival

    @Test
    public void a_reinitialized_task_reads_the_rolled_back_store_not_its_cache() {
        Harness h = new Harness(100);
        h.process(parse(prompt("s1", 1, 1)), T0);
        h.process(parse(chunk("s1", 1, 2, "Reading the file.")), T0.plusMillis(10));
        Map<String, TurnStateValue> committed = h.store();
        // Uncommitted work: the second chunk emits TurnProgressed inside a transaction that then aborts.
        h.process(parse(chunk("s1", 1, 3, "Done reading.")), T0.plusMillis(20));
        assertThat(h.forwarded).filteredOn(r -> r.contains(TurnProgressed.class.getSimpleName())).hasSize(1);

        // EOS abort: the task's store is rolled back to the last commit and the same processor re-initialized
        // (close() may or may not have run before; init alone must be enough).
        h.turns.delete("s1/1");
        committed.forEach(h.turns::put);
        h.processor.init(h.context);
        assertThat(h.processor.turnCacheSize()).isZero();
        h.forwarded.clear();

        // The replayed frame must do again what the aborted transaction did.
        h.process(parse(chunk("s1", 1, 3, "Done reading.")), T0.plusMillis(20));

        assertThat(h.forwarded).filteredOn(r -> r.contains(TurnProgressed.class.getSimpleName())).hasSize(1);
        assertThat(h.counters.count(EvidenceCounters.DUPLICATES)).isZero();
    }

    @Test
    public void closing_the_processor_empties_the_cache() {
        Harness h = new Harness(100);
        h.process(parse(prompt("s1", 1, 1)), T0);
        h.process(parse(stderr("s1", 1, 2, "warning")), T0.plusMillis(10));

        h.processor.close();

        assertThat(h.processor.turnCacheSize()).isZero();
    }

    @Test
    public void a_cached_state_equals_what_the_store_decodes_even_with_sub_millisecond_times() {
        Harness h = new Harness(100);
        ObjectNode first = prompt("s1", 1, 1);
        first.put("occurred_at", "2026-06-01T12:00:00.123456789Z");
        ObjectNode second = chunk("s1", 1, 2, "Working on it.");
        second.put("occurred_at", "2026-06-01T12:00:01.000000500Z");
        ObjectNode third = chunk("s1", 1, 3, "Selected model is at capacity.");
        third.put("occurred_at", "2026-06-01T12:00:02.999999999Z");

        for (ObjectNode f : List.of(first, second, third)) {
            h.process(parse(f), T0.plusMillis(5));
        }

        assertThat(h.processor.cachedTurn("s1/1")).isNotNull()
                .isEqualTo(TurnStateMapping.fromAvro(h.turns.get("s1/1")));
    }

    @Test
    public void a_sub_millisecond_turn_gives_the_same_records_with_or_without_the_cache() {
        Harness cached = new Harness(100);
        Harness uncached = new Harness(0);
        ObjectNode first = prompt("s1", 1, 1);
        first.put("occurred_at", "2026-06-01T12:00:00.123456789Z");
        ObjectNode second = stderr("s1", 1, 2, "retrying");
        second.put("occurred_at", "2026-06-01T12:00:01.000000500Z");
        ObjectNode third = chunk("s1", 1, 3, "Selected model is at capacity.");
        third.put("occurred_at", "2026-06-01T12:00:02.999999999Z");

        for (ObjectNode f : List.of(first, second, third, endTurn("s1", 1, 4, "end_turn"))) {
            cached.process(parse(f), T0.plusMillis(5));
            uncached.process(parse(f), T0.plusMillis(5));
        }

        assertThat(cached.forwarded).isEqualTo(uncached.forwarded).anyMatch(r -> r.contains("Unclassified["));
        assertThat(cached.store()).isEqualTo(uncached.store());
    }
}
