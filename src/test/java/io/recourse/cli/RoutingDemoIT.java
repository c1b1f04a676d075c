package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code recourse demo-routing} end to end on its embedded broker (issue 7): the route timeline,
 * the health table and the parked runs are printed, the records match the simulator's run by run,
 * exit 0. Five runs at 20× keep it well under a minute.
 */
class RoutingDemoIT {

    @Test
    void theRoutingDemoParksTheRunsWakesThemAtTheResetAndExitsZeroWhenTheTimelineMatches() {
        StringWriter out = new StringWriter();
        CommandLine cli = RecourseCommand.commandLine();
        cli.setOut(new PrintWriter(out));

        int exit = cli.execute("demo-routing", "--time-scale", "20", "--runs", "5");

        String printed = out.toString();
        assertThat(printed).contains("-- route timeline", "-- provider health", "-- parked runs");
        assertThat(printed).contains("command run-01#2 retry_same_route on=codex-gpt5 reason=retry_due");
        assertThat(printed).contains("cooldown_released", "ws-demo/anthropic/provider/anthropic degraded",
                "ws-demo/google/provider/google user_action_required");
        assertThat(printed).contains("run-05 waiting_for_provider_capacity");
        assertThat(printed).contains("timeline as expected");
        assertThat(exit).isZero();
    }
}
