package io.recourse.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.cli.RecourseCommand;
import io.recourse.demo.InteractiveScenarios.Scenario;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code recourse demo} with its interactive scenarios end to end on the embedded broker
 * (DESIGN §6, §8 {@code --time-scale}): the scripted dispatcher answers every RetryCommand,
 * the Streams app is restarted once during a countdown, every session follows its expected timeline,
 * exit 0.
 */
public class InteractiveDemoIT {

    @Test
    public void every_interactive_scenario_follows_its_expected_timeline_and_the_demo_exits_zero() {
        StringWriter out = new StringWriter();
        CommandLine cli = RecourseCommand.commandLine();
        cli.setOut(new PrintWriter(out));

        int exit = cli.execute("demo", "--time-scale", "10", "--only", "kanban", "--http-port", "-1");

        String printed = out.toString();
        for (Scenario s : InteractiveScenarios.all()) {
            assertThat(printed).as(printed).contains(s.name() + "  [" + s.sessionId() + "]  ok");
        }
        assertThat(printed).contains("stopped the Streams app during demo-kanban-restart's countdown");
        assertThat(printed).contains("all " + InteractiveScenarios.all().size() + " interactive scenarios followed their expected timeline");
        assertThat(exit).as(printed).isZero();
    }
}
