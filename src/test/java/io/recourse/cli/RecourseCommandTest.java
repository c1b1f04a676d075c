package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

public class RecourseCommandTest {

    @TempDir
    public Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = RecourseCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    public void describe_prints_the_topology_with_its_named_nodes() {
        int code = run("describe");

        assertThat(code).isZero();
        assertThat(out.toString()).contains("Sub-topology: 0", "recourse-frames-source", "recourse-dlq-sink");
    }

    @Test
    public void describe_uses_the_topic_names_of_the_config_file() throws Exception {
        Path file = dir.resolve("recourse.properties");
        Files.writeString(file, "recourse.topic.agent-frames=gw.frames\n");

        int code = run("describe", "--config", file.toString());

        assertThat(code).isZero();
        assertThat(out.toString()).contains("topics: [gw.frames]");
    }

    @Test
    public void an_invalid_configuration_exits_2_naming_key_and_value() throws Exception {
        Path file = dir.resolve("bad.properties");
        Files.writeString(file, "recourse.owner.partitions=many\n");

        int code = run("describe", "--config", file.toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("recourse.owner.partitions=many");
    }

    @Test
    public void help_lists_the_subcommands() {
        int code = run("--help");

        assertThat(code).isZero();
        assertThat(out.toString()).contains("run", "describe", "--version");
    }

    @Test
    public void version_prints_the_program_name() {
        int code = run("--version");

        assertThat(code).isZero();
        assertThat(out.toString()).startsWith("recourse ");
    }

    @Test
    public void no_subcommand_is_a_usage_error() {
        assertThat(run()).isEqualTo(2);
    }
}
