package io.recourse.classification.streams;

import io.recourse.classification.TurnClassifier;
import io.recourse.classification.TurnOutcomes;
import io.recourse.evidence.ClosedTurn;
import io.recourse.evidence.Outcome;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.EvidenceOutput;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.taxonomy.ErrorClass;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The classification stage's processor (DESIGN §5), {@code recourse-classification}: right after
 * the evidence processor in the same sub-topology, it passes the evidence stage's session events
 * through and classifies each closed turn's evidence with the catalogue's {@link TurnClassifier}
 * ({@link TurnOutcomes#outcome}), forwarding — keyed by {@code session_id}, with the closing
 * frame's timestamp — the {@link TurnOutcome} and, for a failed turn, its published
 * classification and, when only a fallback code matched ({@code unclassified}), its sanitized
 * evidence. Stateless.
 *
 * <p>Metrics (DESIGN §10, {@link RecourseMeters}): every classified failed turn counts in
 * {@code recourse_classifications_total}.
 */
public final class ClassificationProcessor extends ContextualProcessor<String, EvidenceOutput, String, ClassificationOutput> {

    private final TurnClassifier classifier;
    private final RecourseMeters meters;

    public ClassificationProcessor(TurnClassifier classifier, RecourseMeters meters) {
        this.classifier = classifier;
        this.meters = meters;
    }

    @Override
    public void process(Record<String, EvidenceOutput> record) {
        EvidenceOutput value = record.value();
        if (value instanceof EvidenceOutput.Event event) {
            forward(record, new ClassificationOutput.Event(event.event()));
        } else if (value instanceof EvidenceOutput.Closed closed) {
            classify(record, closed.turn());
        }
    }

    private void classify(Record<String, EvidenceOutput> record, ClosedTurn closed) {
        TurnOutcome outcome = TurnOutcomes.outcome(closed, classifier);
        forward(record, new ClassificationOutput.Event(outcome));
        if (outcome.outcome() == Outcome.FAILED && outcome.classification() != null) {
            meters.classified(outcome.classification(), outcome.context());
            forward(record, new ClassificationOutput.Classified(AvroMapping.publishedClassification(outcome)));
            if (outcome.classification().errorClass() == ErrorClass.UNCLASSIFIED) {
                forward(record, new ClassificationOutput.Unclassified(
                        AvroMapping.unclassifiedEvidence(closed.evidence(), outcome.classification())));
            }
        }
    }

    /** Forwards {@code value} with the key and timestamp of {@code in} and no headers. */
    private void forward(Record<String, EvidenceOutput> in, ClassificationOutput value) {
        context().forward(new Record<>(in.key(), value, in.timestamp()));
    }
}
