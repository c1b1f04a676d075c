package io.recourse.evidence.streams;

import io.recourse.avro.StoredSignal;
import io.recourse.avro.TurnStateValue;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.EvidenceAssembler;
import io.recourse.evidence.EvidenceBounds;
import io.recourse.evidence.EvidenceSettings;
import io.recourse.ingress.Frame;
import io.recourse.kit.AvroSerde;
import java.time.Duration;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.Stores;

/**
 * The evidence stage's wiring (DESIGN §4): the three changelogged stores and the
 * {@link EvidenceProcessor} over admitted frames. {@link #attach} returns its output keyed by
 * {@code session_id} (session events and closed turns), which the classification stage reads.
 *
 * <p>Stores (changelogs {@code <application.id>-<store>-changelog}):
 * <ul>
 *   <li>{@value #SIGNAL_STORE}: window store, key {@code <turn>#<seq 20 digits>}, value Avro
 *       {@code StoredSignal}, retention {@code recourse.evidence.retention.ms} (default 6 h);</li>
 *   <li>{@value #TURN_STORE}: key-value store, key {@code <turn>}, value Avro
 *       {@code TurnStateValue}, with Kafka Streams' record cache ({@code statestore.cache.max.bytes}): a turn
 *       written several times within a commit interval reaches RocksDB and the changelog once;</li>
 *   <li>{@value #TIME_INDEX_STORE}: key-value store, key {@link EvidenceTimeIndex} bytes, empty value.</li>
 * </ul>
 */
public final class EvidenceTopology {

    // --- stores (DESIGN §4) ---
    public static final String SIGNAL_STORE = "recourse-evidence-signals";
    public static final String TURN_STORE = "recourse-evidence-turns";
    public static final String TIME_INDEX_STORE = "recourse-evidence-time-index";

    // --- processors ---
    public static final String EVIDENCE_PROCESSOR = "recourse-evidence";

    /** The signal window store's window size: signals are points in time, the size only has to be positive. */
    static final Duration SIGNAL_WINDOW = Duration.ofMillis(1);

    private EvidenceTopology() {
    }

    /**
     * The stage's settings for {@code config}: the evidence bounds ({@code recourse.evidence.max.*},
     * the default effect tail), idle bound, retention, punctuation interval and turn cache bounds.
     */
    public static EvidenceSettings settings(RecourseConfig config) {
        return new EvidenceSettings(new EvidenceBounds(config.evidenceMaxSignals(), config.evidenceMaxSignalBytes(),
                config.evidenceMaxTurnBytes(), EvidenceBounds.DEFAULTS.effectTail()), config.evidenceIdle(),
                config.evidenceRetention(), config.punctuationInterval(), config.evidenceTurnCacheEntries(),
                config.evidenceTurnCacheBytes());
    }

    /**
     * Adds the evidence stage to {@code builder}.
     *
     * @param frames     admitted frames keyed {@code <session_id>/<prompt_generation>}, on the
     *                   partitions they landed on
     * @param settings   evidence bounds, idle bound, retention, punctuation interval, turn cache ({@link #settings})
     * @param meters     where the evidence counters go
     * @return the evidence processor's output keyed by {@code session_id}: session events and closed
     *         turns, for the classification stage
     */
    public static KStream<String, EvidenceOutput> attach(StreamsBuilder builder, KStream<String, Frame> frames,
            EvidenceSettings settings, RecourseMeters meters) {
        Duration retention = settings.retention();
        builder.addStateStore(Stores.windowStoreBuilder(
                Stores.persistentWindowStore(SIGNAL_STORE, retention, SIGNAL_WINDOW, false),
                Serdes.String(), AvroSerde.of(StoredSignal.class)));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(TURN_STORE), Serdes.String(),
                AvroSerde.of(TurnStateValue.class, TurnStateCoder::write)).withCachingEnabled());
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(TIME_INDEX_STORE), Serdes.Bytes(), Serdes.ByteArray()));

        EvidenceAssembler assembler = new EvidenceAssembler(settings.bounds());
        return frames.process(() -> new EvidenceProcessor(assembler, meters, settings.idle(), retention,
                        settings.punctuationInterval(), settings.turnCacheEntries(), settings.turnCacheBytes()),
                Named.as(EVIDENCE_PROCESSOR), SIGNAL_STORE, TURN_STORE, TIME_INDEX_STORE);
    }
}
