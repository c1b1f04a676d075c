package io.recourse.classification.streams;

import io.recourse.classification.Classifier;
import io.recourse.classification.TurnClassifier;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.EvidenceOutput;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.kit.Topics;
import java.util.Map;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;

/**
 * The classification stage's wiring (DESIGN §5): the {@link ClassificationProcessor} over the
 * evidence processor's output, the split of its output, and the sinks of the classifications and
 * the unclassified evidence. {@link #attach} returns the SessionEvent stream keyed by
 * {@code session_id}; the topology re-keys and repartitions it for the owners.
 */
public final class ClassificationTopology {

    // --- processors (names kept from when classification ran inside the evidence processor) ---
    public static final String CLASSIFICATION_PROCESSOR = "recourse-classification";
    public static final String EVIDENCE_SPLIT = "recourse-evidence-split-";
    public static final String CLASSIFIED_BRANCH = "classified";
    public static final String UNCLASSIFIED_BRANCH = "unclassified";
    public static final String EVENTS_BRANCH = "session-events";
    public static final String CLASSIFICATION_VALUE = "recourse-evidence-classification";
    public static final String CLASSIFICATIONS_SINK = "recourse-classifications-sink";
    public static final String UNCLASSIFIED_VALUE = "recourse-evidence-unclassified";
    public static final String UNCLASSIFIED_SINK = "recourse-unclassified-evidence-sink";
    public static final String SESSION_EVENT_VALUE = "recourse-evidence-session-event";

    private ClassificationTopology() {
    }

    /**
     * The classifier the topology uses when none is given: the catalogue's
     * ({@link Classifier#withDefaultCatalogue()}, {@code catalogue/provider-errors.v1.json}, DESIGN §5).
     */
    public static TurnClassifier defaultClassifier() {
        return Classifier.withDefaultCatalogue();
    }

    /**
     * Adds the classification stage after the evidence processor.
     *
     * @param evidence   the evidence processor's output keyed by {@code session_id}
     * @param topics     the topic registry (classifications and unclassified-evidence sinks)
     * @param classifier the catalogue's classifier
     * @param meters     where the classification counter goes
     * @return the SessionEvent stream keyed by {@code session_id} (not yet repartitioned)
     */
    public static KStream<String, io.recourse.avro.SessionEvent> attach(KStream<String, EvidenceOutput> evidence,
            Topics topics, TurnClassifier classifier, RecourseMeters meters) {
        Map<String, KStream<String, ClassificationOutput>> out = evidence
                .process(() -> new ClassificationProcessor(classifier, meters), Named.as(CLASSIFICATION_PROCESSOR))
                .split(Named.as(EVIDENCE_SPLIT))
                .branch((k, v) -> v instanceof ClassificationOutput.Classified, Branched.as(CLASSIFIED_BRANCH))
                .branch((k, v) -> v instanceof ClassificationOutput.Unclassified, Branched.as(UNCLASSIFIED_BRANCH))
                .defaultBranch(Branched.as(EVENTS_BRANCH));

        out.get(EVIDENCE_SPLIT + CLASSIFIED_BRANCH)
                .mapValues(v -> ((ClassificationOutput.Classified) v).classification(), Named.as(CLASSIFICATION_VALUE))
                .to(topics.classifications().name(), topics.classifications().produced(CLASSIFICATIONS_SINK));
        out.get(EVIDENCE_SPLIT + UNCLASSIFIED_BRANCH)
                .mapValues(v -> ((ClassificationOutput.Unclassified) v).evidence(), Named.as(UNCLASSIFIED_VALUE))
                .to(topics.unclassifiedEvidence().name(), topics.unclassifiedEvidence().produced(UNCLASSIFIED_SINK));
        return out.get(EVIDENCE_SPLIT + EVENTS_BRANCH)
                .mapValues(v -> AvroMapping.toAvro(((ClassificationOutput.Event) v).event()), Named.as(SESSION_EVENT_VALUE));
    }
}
