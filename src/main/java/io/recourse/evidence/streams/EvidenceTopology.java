package io.recourse.evidence.streams;

import io.recourse.avro.StoredSignal;
import io.recourse.avro.TurnStateValue;
import io.recourse.classification.Classifier;
import io.recourse.classification.TurnClassifier;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.EvidenceAssembler;
import io.recourse.evidence.EvidenceBounds;
import io.recourse.ingress.Frame;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.state.Stores;

/**
 * The evidence stage's wiring (DESIGN §4): the three changelogged stores, the
 * {@link EvidenceProcessor} over admitted frames, and the sinks of its classifications and
 * unclassified evidence. {@link #attach} returns the SessionEvent stream keyed by
 * {@code session_id}; {@link RecourseTopology} re-keys and repartitions it for the owners.
 *
 * <p>Stores (changelogs {@code <application.id>-<store>-changelog}):
 * <ul>
 *   <li>{@value #SIGNAL_STORE}: window store, key {@code <turn>#<seq 20 digits>}, value Avro
 *       {@code StoredSignal}, retention {@code recourse.evidence.retention.ms} (default 6 h);</li>
 *   <li>{@value #TURN_STORE}: key-value store, key {@code <turn>}, value Avro
 *       {@code TurnStateValue};</li>
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
    public static final String EVIDENCE_SPLIT = "recourse-evidence-split-";
    public static final String CLASSIFIED_BRANCH = "classified";
    public static final String UNCLASSIFIED_BRANCH = "unclassified";
    public static final String EVENTS_BRANCH = "session-events";
    public static final String CLASSIFICATION_VALUE = "recourse-evidence-classification";
    public static final String CLASSIFICATIONS_SINK = "recourse-classifications-sink";
    public static final String UNCLASSIFIED_VALUE = "recourse-evidence-unclassified";
    public static final String UNCLASSIFIED_SINK = "recourse-unclassified-evidence-sink";
    public static final String SESSION_EVENT_VALUE = "recourse-evidence-session-event";

    /** The signal window store's window size: signals are points in time, the size only has to be positive. */
    static final Duration SIGNAL_WINDOW = Duration.ofMillis(1);

    private EvidenceTopology() {
    }

    /**
     * The classifier the topology uses when none is given: the catalogue's
     * ({@link Classifier#withDefaultCatalogue()}, {@code catalogue/provider-errors.v1.json}, DESIGN §5).
     */
    public static TurnClassifier defaultClassifier() {
        return Classifier.withDefaultCatalogue();
    }

    /**
     * Adds the evidence stage to {@code builder}.
     *
     * @param frames     admitted frames keyed {@code <session_id>/<prompt_generation>}, on the
     *                   partitions they landed on
     * @param topics     the topic registry (classifications and unclassified-evidence sinks)
     * @param config     evidence bounds, idle bound, retention and punctuation interval
     * @param classifier the catalogue's classifier
     * @param meters     where the evidence counters and the classification counter go
     * @return the SessionEvent stream keyed by {@code session_id} (not yet repartitioned)
     */
    public static KStream<String, io.recourse.avro.SessionEvent> attach(StreamsBuilder builder, KStream<String, Frame> frames,
            Topics topics, RecourseConfig config, TurnClassifier classifier, RecourseMeters meters) {
        Duration retention = config.evidenceRetention();
        builder.addStateStore(Stores.windowStoreBuilder(
                Stores.persistentWindowStore(SIGNAL_STORE, retention, SIGNAL_WINDOW, false),
                Serdes.String(), AvroSerde.of(StoredSignal.class)));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(TURN_STORE), Serdes.String(),
                AvroSerde.of(TurnStateValue.class, TurnStateCoder::write)));
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(TIME_INDEX_STORE), Serdes.Bytes(), Serdes.ByteArray()));

        EvidenceAssembler assembler = new EvidenceAssembler(new EvidenceBounds(config.evidenceMaxSignals(),
                config.evidenceMaxSignalBytes(), config.evidenceMaxTurnBytes(), EvidenceBounds.DEFAULTS.effectTail()));
        Duration idle = config.evidenceIdle();
        Duration interval = config.punctuationInterval();
        int turnCacheEntries = config.evidenceTurnCacheEntries();
        long turnCacheBytes = config.evidenceTurnCacheBytes();
        Map<String, KStream<String, EvidenceOutput>> out = frames
                .process(() -> new EvidenceProcessor(assembler, classifier, meters, idle, retention, interval,
                        turnCacheEntries, turnCacheBytes),
                        Named.as(EVIDENCE_PROCESSOR), SIGNAL_STORE, TURN_STORE, TIME_INDEX_STORE)
                .split(Named.as(EVIDENCE_SPLIT))
                .branch((k, v) -> v instanceof EvidenceOutput.Classified, Branched.as(CLASSIFIED_BRANCH))
                .branch((k, v) -> v instanceof EvidenceOutput.Unclassified, Branched.as(UNCLASSIFIED_BRANCH))
                .defaultBranch(Branched.as(EVENTS_BRANCH));

        out.get(EVIDENCE_SPLIT + CLASSIFIED_BRANCH)
                .mapValues(v -> ((EvidenceOutput.Classified) v).classification(), Named.as(CLASSIFICATION_VALUE))
                .to(topics.classifications().name(), topics.classifications().produced(CLASSIFICATIONS_SINK));
        out.get(EVIDENCE_SPLIT + UNCLASSIFIED_BRANCH)
                .mapValues(v -> ((EvidenceOutput.Unclassified) v).evidence(), Named.as(UNCLASSIFIED_VALUE))
                .to(topics.unclassifiedEvidence().name(), topics.unclassifiedEvidence().produced(UNCLASSIFIED_SINK));
        return out.get(EVIDENCE_SPLIT + EVENTS_BRANCH)
                .mapValues(v -> AvroMapping.toAvro(((EvidenceOutput.Event) v).event()), Named.as(SESSION_EVENT_VALUE));
    }
}
