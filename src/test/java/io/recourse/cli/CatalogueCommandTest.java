package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.recourse.classification.Catalogue;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code recourse catalogue check} and {@code recourse catalogue explain}. */
public class CatalogueCommandTest {

    @TempDir
    public Path dir;

    private Path copy(String resource) throws Exception {
        Path f = dir.resolve(Path.of(resource).getFileName().toString());
        Files.writeString(f, Cli.resource(resource));
        return f;
    }

    @Test
    public void checkOnTheShippedRulesAndFixturesReportsZeroMismatches() {
        Cli.Run run = Cli.run("catalogue", "check");

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("provider-errors.v2").contains("valid")
                .contains("fixtures: " + Cli.jsonLines(CatalogueCheckCommand.DEFAULT_FIXTURES).size())
                .contains("mismatches: 0").doesNotContain("MISMATCH");
    }

    @Test
    public void checkRunsTheCorpusSignaturesWithZeroMismatches() throws Exception {
        Path signatures = copy("corpus/signatures.jsonl");

        Cli.Run run = Cli.run("catalogue", "check", "--fixtures", signatures.toString());

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("fixtures: " + Cli.jsonLines("corpus/signatures.jsonl").size()).contains("mismatches: 0");
    }

    @Test
    public void checkPrintsAHitCountForEveryRuleAndBothFallbacks() throws Exception {
        Path signatures = copy("corpus/signatures.jsonl");

        Cli.Run run = Cli.run("catalogue", "check", "--fixtures", signatures.toString());

        Catalogue shipped = Catalogue.loadDefault();
        for (var rule : shipped.rules()) {
            assertThat(run.out()).containsPattern("(?m)^ +\\d+  " + java.util.regex.Pattern.quote(rule.id()) + "$");
        }
        assertThat(run.out()).containsPattern("(?m)^ +[1-9]\\d*  anthropic\\.overloaded\\.529\\.v1$")
                .containsPattern("(?m)^ +\\d+  fallback\\.pre_start\\.v1$")
                .containsPattern("(?m)^ +\\d+  fallback\\.post_start\\.v1$");
    }

    @Test
    public void aFixtureThatGetsAnotherCodeIsPrintedAsAMismatchAndExitsOne() throws Exception {
        Path fixtures = dir.resolve("wrong.jsonl");
        Files.writeString(fixtures, """
                {"id":"W001","agent_type":"claude-acp","phase":"streaming","signal":{"source":"acp_error","payload":{"code":-32603,"message":"API Error: 529 {\\"type\\":\\"error\\",\\"error\\":{\\"type\\":\\"overloaded_error\\",\\"message\\":\\"Overloaded\\"}}"}},"expected":{"code":"rate_limited","class":"transient"}}
                """);

        Cli.Run run = Cli.run("catalogue", "check", "--fixtures", fixtures.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).contains("mismatches: 1")
                .containsPattern("MISMATCH W001: expected rate_limited, got provider_overloaded by anthropic\\.overloaded\\.[a-z0-9_]+\\.v1");
    }

    @Test
    public void aBrokenRuleFileExitsOneNamingTheRule() throws Exception {
        Path rules = dir.resolve("broken.json");
        Files.writeString(rules, """
                {"catalogue_version":"x-errors.v1","rules":[
                 {"id":"x.fine.v1","priority":2,"why":"w","when":[{"in":["stderr.line"],"literal":"a"}],
                  "code":"rate_limited","class":"transient","confidence":"high","scope":"provider"},
                 {"id":"x.backtracking.v1","priority":1,"why":"w","when":[{"in":["stderr.line"],"regex":"(a+)+$"}],
                  "code":"rate_limited","class":"transient","confidence":"high","scope":"provider"}]}""");

        Cli.Run run = Cli.run("catalogue", "check", "--rules", rules.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("invalid rule file").contains("rule 'x.backtracking.v1'");
        assertThat(run.out()).doesNotContain("mismatches");
    }

    @Test
    public void aPriorityTieNamesBothRules() throws Exception {
        Path rules = dir.resolve("tie.json");
        Files.writeString(rules, """
                {"catalogue_version":"x-errors.v1","rules":[
                 {"id":"x.one.v1","priority":7,"why":"w","when":[{"in":["stderr.line"],"literal":"a"}],
                  "code":"rate_limited","class":"transient","confidence":"high","scope":"provider"},
                 {"id":"x.two.v1","priority":7,"why":"w","when":[{"in":["stderr.line"],"literal":"b"}],
                  "code":"rate_limited","class":"transient","confidence":"high","scope":"provider"}]}""");

        Cli.Run run = Cli.run("catalogue", "check", "--rules", rules.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("x.two.v1").contains("x.one.v1");
    }

    @Test
    public void anUnreadableFixtureLineIsReportedWithItsLineNumberAndFailsTheCheck() throws Exception {
        Path fixtures = dir.resolve("bad-fixtures.jsonl");
        Files.writeString(fixtures, """
                {"id":"B001","signal":{"source":"stderr","payload":{"line":"x"}},"expected":{"code":"no_such_code","class":"hard"}}
                {"id":"B002","signal":{"source":"stderr","payload":{"line":"x"}},"expected":{"code":"rate_limited","class":"hard"}}
                not json
                """);

        Cli.Run run = Cli.run("catalogue", "check", "--fixtures", fixtures.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("bad-fixtures.jsonl line 1: ").contains("no_such_code")
                .contains("bad-fixtures.jsonl line 2: B002: expected class hard is not the class of rate_limited")
                .contains("bad-fixtures.jsonl line 3: not valid JSON");
    }

    @Test
    public void aMissingFixtureFileExitsOne() {
        Cli.Run run = Cli.run("catalogue", "check", "--fixtures", dir.resolve("none.jsonl").toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("cannot read fixture file").contains("no such file");
    }

    @Test
    public void catalogueWithoutASubcommandIsAUsageError() {
        assertThat(Cli.run("catalogue").exitCode()).isEqualTo(2);
    }

    @Test
    public void explainNamesTheWinningRuleThatClassifyReports() throws Exception {
        Path in = dir.resolve("turn.jsonl");
        Files.writeString(in, ClassifyCommandTest.prompt("s1", 1) + "\n" + ClassifyCommandTest.overloaded("s1", 1, 2) + "\n");
        String winner = Cli.run("classify", in.toString()).objects().get(0).get("rule_id").asText();

        Cli.Run run = Cli.run("catalogue", "explain", in.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("turn s1/1: failed")
                .containsPattern("WIN +\\d+ " + java.util.regex.Pattern.quote(winner) + ": matched on seq \\[2\\]")
                .contains("verdict: rule " + winner)
                .contains("seq 2 error");
    }

    @Test
    public void explainListsRulesThatDidNotMatchAndWhy() throws Exception {
        Path in = dir.resolve("turn.jsonl");
        Files.writeString(in, ClassifyCommandTest.prompt("s1", 1) + "\n" + ClassifyCommandTest.overloaded("s1", 1, 2) + "\n");

        Cli.Run run = Cli.run("catalogue", "explain", in.toString());

        int rules = Catalogue.loadDefault().rules().size();
        assertThat(run.out()).contains("rules tried: " + rules)
                .containsPattern("  -   +\\d+ launch\\.exit_127\\.v1: no signal where exit\\.code");
    }

    @Test
    public void explainOfACompletedTurnSaysWhyItIsNotAFailure() throws Exception {
        Path in = dir.resolve("ok.jsonl");
        Files.writeString(in, ClassifyCommandTest.prompt("s1", 1) + "\n" + ClassifyCommandTest.endTurn("s1", 1, 2) + "\n");

        Cli.Run run = Cli.run("catalogue", "explain", "--matched-only", in.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("turn s1/1: completed, stopReason end_turn").contains("matched: 0").contains("verdict: ")
                .doesNotContain("WIN");
    }

    @Test
    public void explainOverTheCorpusExplainsEveryClosedTurnWithItsClassifiedRule() throws Exception {
        Path corpus = copy("corpus/sequences.jsonl");
        Cli.Run classified = Cli.run("classify", corpus.toString());

        Cli.Run run = Cli.run("catalogue", "explain", "--matched-only", corpus.toString());

        assertThat(run.exitCode()).isZero();
        for (JsonNode t : classified.objects()) {
            String turn = "turn " + t.get("session_id").asText() + "/" + t.get("prompt_generation").asInt() + ": "
                    + t.get("outcome").asText();
            assertThat(run.out()).contains(turn);
            if (!t.get("rule_id").isNull() && !t.get("rule_id").asText().startsWith("fallback.")) {
                assertThat(run.out()).contains("WIN").contains("by rule " + t.get("rule_id").asText());
            }
        }
    }

    @Test
    public void explainReadsStandardInput() {
        String stdin = ClassifyCommandTest.prompt("s1", 1) + "\n" + ClassifyCommandTest.overloaded("s1", 1, 2) + "\n";

        Cli.Run run = Cli.withStdin(stdin, "catalogue", "explain", "--matched-only", "-");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("turn s1/1: failed").contains("WIN");
        assertThat(run.err()).startsWith("standard input: 2 lines");
    }

    @Test
    void rulesFromTheClassPathLoadThePreviousCatalogueForComparison() {
        Cli.Run v1 = Cli.run("catalogue", "check", "--rules", "classpath:catalogue/provider-errors.v1.json",
                "--fixtures", copyUnchecked("corpus/signatures.jsonl").toString());
        Cli.Run missing = Cli.run("catalogue", "check", "--rules", "classpath:catalogue/nope.json");

        assertThat(v1.out()).contains("rules: classpath:catalogue/provider-errors.v1.json — provider-errors.v1");
        assertThat(v1.exitCode()).as(v1.out() + v1.err()).isZero();
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("cannot read rule file classpath:catalogue/nope.json");
    }

    private Path copyUnchecked(String resource) {
        try {
            return copy(resource);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
