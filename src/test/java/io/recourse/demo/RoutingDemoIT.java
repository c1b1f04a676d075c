package io.recourse.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.cli.RecourseCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code recourse demo-routing} end to end on its embedded broker: the scripted
 * dispatcher's frames go through the real topology (ingress → evidence → classification → routing
 * owner); the route timeline, the health table and the parked runs are printed, the timeline
 * follows the scenario per run and per health key, exit 0. Five runs at 10× take about a minute.
 */
public class RoutingDemoIT {

    @Test
    public void theRoutingDemoParksTheRunsWakesThemAtTheResetAndExitsZeroWhenTheTimelineMatches() {
        StringWriter out = new StringWriter();
        CommandLine cli = RecourseCommand.commandLine();
        cli.setOut(new PrintWriter(out));

        int exit = cli.execute("demo-routing", "--time-scale", "10", "--runs", "5");

        String printed = out.toString();
        assertThat(printed).contains("-- route timeline", "-- provider health", "-- parked runs");
        assertThat(printed).contains("command run-01#2 retry_same_route on=codex-gpt5 reason=retry_due");
        assertThat(printed).contains("cooldown_released", "health ws-demo/anthropic/provider/anthropic degraded",
                "ws-demo/google/provider/google user_action_required");
        assertThat(printed).contains("run-05 waiting_for_provider_capacity");
        assertThat(printed).contains("fresh_session_continuation on=claude-sonnet reason=wake")
                .doesNotContain("-- dead letters");
        assertThat(printed).contains("timeline as expected");
        assertThat(exit).isZero();
    }
}
