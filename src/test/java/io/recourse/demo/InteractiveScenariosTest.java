package io.recourse.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.demo.InteractiveScenarios.Observed;
import io.recourse.demo.InteractiveScenarios.Scenario;
import io.recourse.demo.InteractiveScenarios.Step;
import io.recourse.interactive.Disposition;
import io.recourse.interactive.InteractiveConfig;
import io.recourse.interactive.RecoveryReason;
import io.recourse.interactive.RecoveryState;
import io.recourse.interactive.RecoveryStatus;
import io.recourse.interactive.RetryCommand;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.ErrorClass;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo's expected-timeline checks: steps, jitter bounds, hints, commands. */
public class InteractiveScenariosTest {

    private static final Instant T0 = Instant.parse("2026-11-30T09:00:00Z");
    private static final InteractiveConfig CONFIG = InteractiveConfig.defaults();

    private static RecoveryState state(RecoveryStatus status, int attempt, Instant retryAt, RecoveryReason reason, Instant at) {
        return new RecoveryState("s", 1, status, Code.RATE_LIMITED, ErrorClass.TRANSIENT,
                status == RecoveryStatus.MANUAL ? Disposition.MANUAL : Disposition.AUTO_RETRY, attempt, 5, retryAt,
                "anthropic", "claude", "rule", reason, at);
    }

    private static Scenario scenario(String name) {
        return InteractiveScenarios.all().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    public void a_delay_within_twenty_percent_of_the_nominal_one_is_within_bounds() {
        RecoveryState s = state(RecoveryStatus.SCHEDULED, 2, T0.plusMillis(11_900), null, T0);

        assertThat(InteractiveScenarios.boundsViolation(s, T0, null, CONFIG)).isNull();
    }

    @Test
    public void a_delay_beyond_twenty_percent_of_the_nominal_one_is_reported() {
        RecoveryState s = state(RecoveryStatus.SCHEDULED, 1, T0.plusMillis(6_100), null, T0);

        assertThat(InteractiveScenarios.boundsViolation(s, T0, null, CONFIG)).contains("6100 ms").contains("[3999, 6001]");
    }

    @Test
    public void a_retry_at_equal_to_a_later_hint_is_within_bounds() {
        RecoveryState s = state(RecoveryStatus.SCHEDULED, 1, T0.plusSeconds(12), null, T0);

        assertThat(InteractiveScenarios.boundsViolation(s, T0, T0.plusSeconds(12), CONFIG)).isNull();
    }

    @Test
    public void a_retry_at_before_the_hint_is_reported() {
        RecoveryState s = state(RecoveryStatus.SCHEDULED, 1, T0.plusSeconds(5), null, T0);

        assertThat(InteractiveScenarios.boundsViolation(s, T0, T0.plusSeconds(12), CONFIG)).contains("before the retry-after hint");
    }

    @Test
    public void repeated_equal_steps_count_once_in_the_timeline() {
        List<RecoveryState> states = List.of(
                state(RecoveryStatus.AWAITING_OUTCOME, 1, T0, null, T0),
                state(RecoveryStatus.AWAITING_OUTCOME, 1, T0, null, T0.plusSeconds(1)),
                state(RecoveryStatus.DISARMED, 1, null, RecoveryReason.RETRY_SUCCEEDED, T0.plusSeconds(2)));

        assertThat(InteractiveScenarios.timeline(states)).containsExactly(
                new Step(RecoveryStatus.AWAITING_OUTCOME, 1, null),
                new Step(RecoveryStatus.DISARMED, 1, RecoveryReason.RETRY_SUCCEEDED));
    }

    @Test
    public void the_expected_timeline_of_the_manual_scenario_matches_when_observed() {
        Scenario tool = scenario("failure_after_tool_call_is_manual");
        Observed o = new Observed();
        o.states.add(state(RecoveryStatus.MANUAL, 0, null, RecoveryReason.NOT_REPLAY_SAFE, T0));

        assertThat(InteractiveScenarios.differences(tool, o, CONFIG)).isEmpty();
    }

    @Test
    public void a_different_status_sequence_is_reported() {
        Scenario tool = scenario("failure_after_tool_call_is_manual");
        Observed o = new Observed();
        o.states.add(state(RecoveryStatus.SCHEDULED, 1, T0.plusSeconds(5), null, T0));

        assertThat(InteractiveScenarios.differences(tool, o, CONFIG)).anyMatch(d -> d.startsWith("timeline"));
    }

    @Test
    public void a_second_command_for_one_attempt_is_reported() {
        Scenario hint = scenario("rate_limited_with_12s_hint");
        Observed o = new Observed();
        o.recordedAt.put(1, T0);
        o.hintWait.put(1, Duration.ofSeconds(12));
        o.states.add(state(RecoveryStatus.SCHEDULED, 1, T0.plusSeconds(12), null, T0.plusSeconds(1)));
        o.states.add(state(RecoveryStatus.DISPATCHING, 1, T0.plusSeconds(12), null, T0.plusSeconds(12)));
        o.states.add(state(RecoveryStatus.AWAITING_OUTCOME, 1, T0.plusSeconds(12), null, T0.plusSeconds(13)));
        o.states.add(state(RecoveryStatus.DISARMED, 1, null, RecoveryReason.RETRY_SUCCEEDED, T0.plusSeconds(14)));
        RetryCommand c = new RetryCommand("cmd-1", "s", 1, 1, 1, 5, Code.RATE_LIMITED, "rule", "digest", null, null, null,
                null, T0.plusSeconds(12), T0.plusSeconds(12));
        o.commands.add(c);
        assertThat(InteractiveScenarios.differences(hint, o, CONFIG)).isEmpty();

        o.commands.add(c);

        assertThat(InteractiveScenarios.differences(hint, o, CONFIG)).contains("duplicate command_id cmd-1")
                .anyMatch(d -> d.startsWith("retry commands for attempts [1, 1]"));
    }

    @Test
    public void a_retry_turn_carries_the_command_id_origin_retry_and_the_generation_it_replaces() {
        Scenario overload = scenario("overload_recovers_on_second_retry");
        RetryCommand c = new RetryCommand("cmd-7", overload.sessionId(), 2, 1, 2, 5, Code.PROVIDER_OVERLOADED, "rule",
                "digest", null, null, null, null, T0, T0);

        List<com.fasterxml.jackson.databind.node.ObjectNode> frames = new InteractiveScenarios.Frames()
                .turn(overload, 3, 10, T0, InteractiveScenarios.Turn.COMPLETED, c);

        assertThat(frames.get(0).get("prompt_origin").asText()).isEqualTo("retry");
        assertThat(frames.get(0).get("command_id").asText()).isEqualTo("cmd-7");
        assertThat(frames.get(0).get("retry_of_generation").asInt()).isEqualTo(2);
        assertThat(frames).allSatisfy(f -> {
            assertThat(f.get("session_id").asText()).isEqualTo(overload.sessionId());
            assertThat(f.get("prompt_generation").asInt()).isEqualTo(3);
        });
        assertThat(frames.stream().map(f -> f.get("seq").asLong()).toList()).containsExactly(10L, 11L, 12L);
    }

    @Test
    public void a_rate_limited_turn_carries_the_scenarios_retry_after_hint() {
        Scenario hint = scenario("rate_limited_with_12s_hint");

        List<com.fasterxml.jackson.databind.node.ObjectNode> frames = new InteractiveScenarios.Frames()
                .turn(hint, 1, 1, T0, InteractiveScenarios.Turn.RATE_LIMITED, null);

        assertThat(frames.get(0).get("prompt_origin").asText()).isEqualTo("user");
        assertThat(frames.get(1).at("/payload/status").asInt()).isEqualTo(429);
        assertThat(frames.get(1).at("/payload/headers/retry-after").asText()).isEqualTo("12");
    }

    @Test
    public void every_scenario_ends_in_a_terminal_status() {
        for (Scenario s : InteractiveScenarios.all()) {
            assertThat(InteractiveScenarios.terminal(s.expected().get(s.expected().size() - 1).status())).as(s.name()).isTrue();
        }
    }
}
