package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code recourse catalogue score}: observed cases and corpus sequences, thresholds, splits, formats. */
public class CatalogueScoreCommandTest {

    @TempDir
    public static Path dir;

    private static Path cases;
    private static String devReport;
    private static String testReport;

    /** The first {@code example/agent#N} report the split rule puts in {@code split}. */
    private static String report(String split) {
        for (int i = 1; ; i++) {
            if (ObservedCase.splitOf("example/agent#" + i).equals(split)) {
                return "example/agent#" + i;
            }
        }
    }

    @BeforeAll
    public static void writeCases() throws Exception {
        devReport = report("dev");
        testReport = report("test");
        ObjectNode right = ObservedCaseRendererTest.caseLine("obs-cli-001", n -> n.put("source_report", devReport));
        ObjectNode wrong = ObservedCaseRendererTest.caseLine("obs-cli-002", n -> {
            n.put("source_report", devReport);
            n.putObject("expected").put("code", "quota_limited").put("class", "hard");
        });
        ObjectNode negative = ObservedCaseRendererTest.caseLine("obs-cli-003", n -> {
            n.put("source_report", testReport);
            ObservedCaseRendererTest.negative(n, "answer");
        });
        cases = dir.resolve("cases.jsonl");
        Files.writeString(cases, List.of(right, wrong, negative).stream().map(JsonNode::toString)
                .collect(Collectors.joining("\n", "", "\n")));
    }

    @Test
    public void scoresCasesAndPrintsEveryFigure() {
        Cli.Run run = Cli.run("catalogue", "score", cases.toString());

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("cases: 3\n").contains("failing turns: 2\n")
                .contains("exact-code accuracy: 0.5000 (1/2)")
                .contains("policy-equivalent accuracy: 0.5000 (1/2)")
                .contains("class accuracy: 0.5000 (1/2)")
                .contains("unsafe: 1\n").contains("silent: 0\n").contains("negatives kept: 1.0000 (1/1)")
                .containsPattern("(?m)^  provider_overloaded +provider_overloaded +1$")
                .containsPattern("(?m)^  quota_limited +provider_overloaded +1  ✗$")
                .containsPattern("(?m)^  \\(completed\\) +\\(completed\\) +1$")
                .containsPattern("obs-cli-002: truth quota_limited, got provider_overloaded by anthropic\\.overloaded\\.[a-z0-9_.]+ \\(high\\) UNSAFE");
    }

    @Test
    public void aThresholdBelowTheFigureExitsOneAndSaysWhichFailed() {
        Cli.Run failed = Cli.run("catalogue", "score", "--min-exact", "0.9", "--max-silent", "0", cases.toString());
        Cli.Run held = Cli.run("catalogue", "score", "--min-exact", "0.5", "--max-silent", "0", cases.toString());
        Cli.Run unsafe = Cli.run("catalogue", "score", "--max-unsafe", "0", cases.toString());

        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.out()).contains("threshold min-exact 0.9000: FAILED (0.5000 (1/2))")
                .contains("threshold max-silent 0: ok (0)");
        assertThat(held.exitCode()).as(held.out()).isZero();
        assertThat(held.out()).contains("threshold min-exact 0.5000: ok");
        assertThat(unsafe.exitCode()).isEqualTo(1);
        assertThat(unsafe.out()).contains("threshold max-unsafe 0: FAILED (1)");
    }

    @Test
    public void splitKeepsTheCasesOfOneSplit() {
        Cli.Run dev = Cli.run("catalogue", "score", "--split", "dev", cases.toString());
        Cli.Run test = Cli.run("catalogue", "score", "--split", "test", "--min-negatives-kept", "1", "--min-exact", "0.9",
                cases.toString());

        assertThat(dev.out()).contains("cases: 2\n").contains("1 cases of the other split left out");
        assertThat(test.out()).contains("cases: 1\n").contains("failing turns: 0\n").contains("exact-code accuracy: n/a (0/0)");
        assertThat(test.exitCode()).as("a minimum with nothing to measure fails").isEqualTo(1);
        assertThat(test.out()).contains("threshold min-exact 0.9000: FAILED (n/a (0/0))")
                .contains("threshold min-negatives-kept 1.0000: ok");
    }

    @Test
    public void theCorpusSequencesScorePerfectlyOnTheShippedRules() throws Exception {
        Path sequences = dir.resolve("sequences.jsonl");
        Files.writeString(sequences, Cli.resource("corpus/sequences.jsonl"));

        Cli.Run run = Cli.run("catalogue", "score", "--min-exact", "1", "--min-policy", "1", "--max-unsafe", "0",
                "--max-silent", "0", "--min-negatives-kept", "1", sequences.toString(), cases.toString());

        int lines = Cli.jsonLines("corpus/sequences.jsonl").size();
        assertThat(run.out()).contains("cases: " + (lines + 3) + "\n").contains("mismatches: 1\n")
                .contains("obs-cli-002: truth quota_limited");
        assertThat(run.exitCode()).as("obs-cli-002 is wrong on purpose").isEqualTo(1);
        Cli.Run alone = Cli.run("catalogue", "score", "--min-exact", "1", "--min-policy", "1", "--max-unsafe", "0",
                "--max-silent", "0", "--min-negatives-kept", "1", sequences.toString());
        assertThat(alone.exitCode()).as(alone.out() + alone.err()).isZero();
        assertThat(alone.out()).contains("mismatches: 0\n");
    }

    @Test
    public void anUnreadableLineIsNamedWithItsFieldAndFailsTheRun() throws Exception {
        Path bad = dir.resolve("bad.jsonl");
        ObjectNode popup = ObservedCaseRendererTest.caseLine("obs-cli-010", n -> n.put("surface", "popup"));
        Files.writeString(bad, ObservedCaseRendererTest.caseLine("obs-cli-011", n -> { }) + "\n" + popup + "\n{\n");

        Cli.Run run = Cli.run("catalogue", "score", bad.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains(bad + " line 2 (obs-cli-010): field 'surface': unknown surface 'popup'")
                .contains(bad + " line 3: not valid JSON");
        assertThat(run.out()).contains("cases: 1\n").contains("2 unreadable lines skipped");
    }

    @Test
    public void jsonFormatCarriesTheSameFigures() {
        Cli.Run run = Cli.run("catalogue", "score", "--format", "json", "--min-policy", "0.4", cases.toString());

        JsonNode n = run.objects().get(0);
        assertThat(n.path("cases").asInt()).isEqualTo(3);
        assertThat(n.path("exact").toString()).isEqualTo("{\"count\":1,\"of\":2,\"rate\":0.5}");
        assertThat(n.path("unsafe").asInt()).isEqualTo(1);
        assertThat(n.path("negatives_kept").path("rate").asDouble()).isEqualTo(1.0);
        assertThat(n.path("mismatches").get(0).path("id").asText()).isEqualTo("obs-cli-002");
        assertThat(n.path("mismatches").get(0).path("unsafe").asBoolean()).isTrue();
        assertThat(n.path("thresholds").get(0).path("ok").asBoolean()).isTrue();
        assertThat(n.path("ok").asBoolean()).isTrue();
        assertThat(run.exitCode()).isZero();
    }

    @Test
    public void outOfRangeThresholdsAreUsageErrors() {
        assertThat(Cli.run("catalogue", "score", "--min-exact", "1.5", cases.toString()).exitCode()).isEqualTo(2);
        assertThat(Cli.run("catalogue", "score", "--max-unsafe", "-1", cases.toString()).exitCode()).isEqualTo(2);
        assertThat(Cli.run("catalogue", "score").exitCode()).isEqualTo(2);
    }
}
