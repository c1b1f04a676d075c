package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code recourse produce}'s messages without a running cluster: what failed and where, and an unreachable cluster in one line. */
class ProduceCommandTest {

    @TempDir
    Path dir;

    @Test
    void each_error_says_whether_json_parsing_or_schema_validation_failed_and_on_which_line() throws Exception {
        Path input = Files.writeString(dir.resolve("controls.jsonl"),
                "{\"session_id\":\"s1\",\"action\":\"retry_nw\"}\n{\"session_id\":\"s1\",");
        Cli.Run run = Cli.run("produce", "session-controls", input.toString(), "--dry-run");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("document 1 (line 1): schema validation (session-control.schema.json): /action",
                "document 1 (line 1): schema validation (session-control.schema.json): : required property 'occurred_at' not found",
                "document 2 (line 2): JSON parse error: Unexpected end-of-input",
                "nothing sent: 3 error(s) (1 JSON parse, 2 schema validation or size)");
        assertThat(run.err()).doesNotContain("against");
    }

    @Test
    void a_document_that_is_no_json_is_a_parse_error_not_a_schema_error() throws Exception {
        Path input = Files.writeString(dir.resolve("garbage.jsonl"), "\n\nnot json\n");
        Cli.Run run = Cli.run("produce", "session-controls", input.toString(), "--dry-run");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("document 1 (line 3): JSON parse error: Unrecognized token 'not'",
                "nothing sent: 1 error(s) (JSON parse)").doesNotContain("schema");
    }

    @Test
    void an_unreachable_cluster_is_the_startup_checks_one_line_message() {
        Cli.Run run = Cli.run("produce", "session-controls", "examples/session-control.retry_now.json",
                "--set", "bootstrap.servers=127.0.0.1:1", "--set", "request.timeout.ms=1000", "--set", "default.api.timeout.ms=2000");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.err().strip()).startsWith("the Kafka cluster at 127.0.0.1:1 did not answer within")
                .contains("check bootstrap.servers").doesNotContain("Exception").doesNotContain("\n");
        assertThat(run.out()).doesNotContain("sent");
    }
}
