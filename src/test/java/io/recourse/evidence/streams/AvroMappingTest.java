package io.recourse.evidence.streams;

import static io.recourse.evidence.streams.AvroSamples.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recourse.evidence.Outcome;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.SessionStopped;
import io.recourse.evidence.TurnExpired;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.TurnProgressed;
import io.recourse.evidence.TurnStarted;
import io.recourse.kit.AvroSerde;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

public class AvroMappingTest {

    public static List<SessionEvent> sessionEvents() {
        return List.of(
                new TurnStarted(AvroSamples.context(), "ab12", "cd34", T0),
                new TurnStarted(AvroSamples.sparseContext(), null, null, T0),
                new TurnProgressed(AvroSamples.context(), true, false, T0),
                AvroSamples.failedOutcome(),
                new TurnOutcome(AvroSamples.sparseContext(), Outcome.COMPLETED, false, "end_turn", true, true, true, null, T0, T0),
                new TurnExpired(AvroSamples.context(), T0, T0.plusSeconds(7200)),
                new SessionStopped(AvroSamples.sparseContext(), T0));
    }

    @ParameterizedTest
    @MethodSource("sessionEvents")
    public void every_session_event_survives_the_avro_union_and_the_wire(SessionEvent event) {
        AvroSerde<io.recourse.avro.SessionEvent> serde = AvroSerde.of(io.recourse.avro.SessionEvent.class);

        SessionEvent back = AvroMapping.fromAvro(serde.decode(serde.encode(AvroMapping.toAvro(event))));

        assertThat(back).isEqualTo(event);
    }

    @Test
    public void a_failed_outcome_publishes_its_classification_with_the_turn_context() {
        TurnOutcome outcome = AvroSamples.failedOutcome();

        io.recourse.avro.Classification published = AvroMapping.publishedClassification(outcome);

        assertThat(published.getSessionId()).isEqualTo("sess/with/slashes");
        assertThat(published.getPromptGeneration()).isEqualTo(3);
        assertThat(published.getCode()).isEqualTo("rate_limited");
        assertThat(published.getClass$()).isEqualTo("transient");
        assertThat(published.getConfidence()).isEqualTo("high");
        assertThat(published.getScope()).isEqualTo("model");
        assertThat(published.getRetryAfter()).isEqualTo(T0.plusSeconds(30));
        assertThat(published.getProfileKind()).isEqualTo("dynamic");
        assertThat(published.getWorkspaceId()).isEqualTo("ws-1");
        assertThat(published.getRecordedAt()).isEqualTo(T0.plusMillis(5));
        assertThat(AvroMapping.fromAvro(published)).isEqualTo(outcome.classification());
    }

    @Test
    public void an_outcome_without_classification_cannot_be_published() {
        TurnOutcome completed = new TurnOutcome(AvroSamples.sparseContext(), Outcome.COMPLETED, false, "end_turn", false,
                false, true, null, T0, T0);

        assertThatThrownBy(() -> AvroMapping.publishedClassification(completed))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("s1/1");
    }

    @Test
    public void a_stored_signal_reads_back_as_the_same_signal() {
        var signal = AvroSamples.signal(42);

        assertThat(AvroMapping.fromStored(AvroMapping.toStored(signal))).isEqualTo(signal);
    }

    @Test
    public void unclassified_evidence_carries_the_evidence_and_the_fallback_rule() {
        var fallback = new io.recourse.taxonomy.Classification(Code.UNKNOWN_PROVIDER_ERROR, Confidence.LOW,
                "fallback.pre_start.v1", "provider-errors.v1", Scope.PROVIDER, null, null, false);

        var record = AvroMapping.unclassifiedEvidence(AvroSamples.evidence(), fallback);

        assertThat(record.getCode()).isEqualTo("unknown_provider_error");
        assertThat(record.getRuleId()).isEqualTo("fallback.pre_start.v1");
        assertThat(record.getSignals()).hasSize(2);
        assertThat(AvroMapping.fromAvro(record)).isEqualTo(AvroSamples.evidence());
    }

    @Test
    public void an_unknown_wire_name_is_rejected_naming_it() {
        var record = AvroMapping.toAvro(AvroSamples.failedOutcome());
        ((io.recourse.avro.TurnOutcome) record.getEvent()).setOutcome("exploded");

        assertThatThrownBy(() -> AvroMapping.fromAvro(record)).hasMessageContaining("exploded");
    }
}
