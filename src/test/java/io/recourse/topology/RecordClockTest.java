package io.recourse.topology;

import static io.recourse.evidence.streams.SessionEvents.failed;
import static io.recourse.evidence.streams.SessionEvents.started;
import static io.recourse.evidence.streams.SessionEvents.user;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.evidence.TurnOutcome;
import io.recourse.interactive.ControlAction;
import io.recourse.interactive.InteractiveConfig;
import io.recourse.interactive.InteractiveEligibility;
import io.recourse.interactive.InteractiveInput;
import io.recourse.interactive.SessionControl;
import io.recourse.interactive.streams.InteractiveProcessor;
import io.recourse.runtime.ScaledTime;
import io.recourse.taxonomy.Code;
import java.time.Instant;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The interactive owner maps record timestamps onto the injected clock before comparing them with
 * it (DESIGN §8, {@link InteractiveProcessor#onClock}).
 */
public class RecordClockTest {

    private static final Instant ORIGIN = Instant.parse("2026-11-30T09:00:00Z");
    private final ScaledTime tenTimes = new ScaledTime(ORIGIN, 10);

    @Test
    public void a_turn_outcomes_recorded_at_is_mapped_onto_the_scaled_clock() {
        TurnOutcome outcome = failed(user("s1", 1), Code.PROVIDER_OVERLOADED, ORIGIN.plusSeconds(40));

        InteractiveInput mapped = InteractiveProcessor.onClock(InteractiveInput.of(outcome), tenTimes::scaled);

        TurnOutcome o = (TurnOutcome) ((InteractiveInput.Event) mapped).event();
        assertThat(o.recordedAt()).isEqualTo(ORIGIN.plusSeconds(400));
        assertThat(o.occurredAt()).as("event time is not a record timestamp").isEqualTo(outcome.occurredAt());
        assertThat(o.classification()).isEqualTo(outcome.classification());
    }

    @Test
    public void a_fresh_failure_stays_fresh_on_a_scaled_clock_only_after_mapping() {
        // 40 s of wall time after the origin at 10x: the scaled clock reads origin + 400 s
        TurnOutcome outcome = failed(user("s1", 1), Code.PROVIDER_OVERLOADED, ORIGIN.plusSeconds(40));
        Instant now = ORIGIN.plusSeconds(400);
        InteractiveConfig config = InteractiveConfig.defaults(); // staleness bound 5 min

        TurnOutcome mapped = (TurnOutcome) ((InteractiveInput.Event) InteractiveProcessor.onClock(
                InteractiveInput.of(outcome), tenTimes::scaled)).event();

        assertThat(InteractiveEligibility.stale(outcome, now, config)).as("unmapped: 360 s old").isTrue();
        assertThat(InteractiveEligibility.stale(mapped, now, config)).as("mapped: 0 s old").isFalse();
    }

    @Test
    public void the_identity_mapping_leaves_the_input_as_it_is() {
        InteractiveInput input = InteractiveInput.of(failed(user("s1", 1), Code.MODEL_CAPACITY, ORIGIN));

        assertThat(InteractiveProcessor.onClock(input, UnaryOperator.identity())).isSameAs(input);
    }

    @Test
    public void inputs_without_record_times_are_not_mapped() {
        InteractiveInput start = InteractiveInput.of(started(user("s1", 1), ORIGIN.plusSeconds(5)));
        SessionControl control = new SessionControl(ControlAction.CANCEL_RETRY, "s1", 1, ORIGIN.plusSeconds(5));

        assertThat(InteractiveProcessor.onClock(start, tenTimes::scaled)).isSameAs(start);
        assertThat(InteractiveProcessor.onClock(control, tenTimes::scaled)).isSameAs(control);
    }
}
