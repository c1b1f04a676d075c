package io.recourse.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.cli.RecourseCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code recourse demo --no-interactive} end to end on its embedded broker: every sample turn gets its
 * expected outcome, exit 0 (the interactive scenarios: {@link InteractiveDemoIT}).
 */
public class DemoCommandIT {

    @Test
    public void the_demo_prints_one_line_per_sample_turn_and_exits_zero_when_all_match() {
        StringWriter out = new StringWriter();
        CommandLine cli = RecourseCommand.commandLine();
        cli.setOut(new PrintWriter(out));

        int exit = cli.execute("demo", "--only", "evidence", "--http-port", "-1");

        assertThat(out.toString()).contains("all " + DemoSamples.load().size() + " turns got their expected outcome");
        for (DemoSamples.Sample s : DemoSamples.load()) {
            assertThat(out.toString()).contains(s.sessionId());
        }
        assertThat(exit).isZero();
    }
}
