package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code recourse classify FILE|-}: output shape, bad lines, open turns, options and exit codes. */
public class ClassifyCommandTest {

    /** Planted in bad lines: stderr must never echo a line's content. */
    private static final String CANARY = "sk-ant-canary0123456789abcdefXYZ";

    @TempDir
    public Path dir;

    public static ObjectNode frame(String session, int generation, long seq, String source, String payloadJson) {
        ObjectNode f = Cli.JSON.createObjectNode();
        f.put("session_id", session).put("prompt_generation", generation).put("seq", seq)
                .put("occurred_at", "2026-06-01T12:00:" + String.format("%02d", seq) + "Z")
                .put("source", source).put("agent_type", "claude-acp").put("provider_id", "anthropic")
                .put("model_id", "claude-sonnet-4").put("profile_kind", "concrete")
                .put("phase", seq == 1 ? "prompt_send" : "streaming");
        try {
            f.set("payload", Cli.JSON.readTree(payloadJson));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
        return f;
    }

    public static ObjectNode prompt(String session, int generation) {
        return frame(session, generation, 1, "acp_request",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"a1\",\"prompt\":[{\"type\":\"text\",\"text\":\"hi\"}]}}");
    }

    public static ObjectNode overloaded(String session, int generation, long seq) {
        return frame(session, generation, seq, "acp_error",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32603,\"message\":\"API Error: 529 {\\\"type\\\":\\\"error\\\",\\\"error\\\":{\\\"type\\\":\\\"overloaded_error\\\",\\\"message\\\":\\\"Overloaded\\\"}}\"}}");
    }

    public static ObjectNode endTurn(String session, int generation, long seq) {
        return frame(session, generation, seq, "acp_response", "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"stopReason\":\"end_turn\"}}");
    }

    private Path file(String... lines) throws Exception {
        Path f = dir.resolve("frames.jsonl");
        Files.writeString(f, String.join("\n", lines) + "\n");
        return f;
    }

    @Test
    public void aFailedTurnPrintsEveryDocumentedFieldInOrder() throws Exception {
        Path in = file(prompt("s1", 1).toString(), overloaded("s1", 1, 2).toString());

        Cli.Run run = Cli.run("classify", in.toString());

        assertThat(run.exitCode()).isZero();
        JsonNode t = run.objects().get(0);
        assertThat(Cli.JSON.convertValue(t, java.util.Map.class).keySet()).containsExactly("session_id", "prompt_generation",
                "outcome", "launch", "code", "class", "confidence", "rule_id", "catalogue_version", "scope", "replay_safe",
                "assistant_output_seen", "tool_activity_seen", "retry_after", "reset_at");
        assertThat(t.get("outcome").asText()).isEqualTo("failed");
        assertThat(t.get("code").asText()).isEqualTo("provider_overloaded");
        assertThat(t.get("class").asText()).isEqualTo("transient");
        assertThat(t.get("replay_safe").asBoolean()).isTrue();
        assertThat(t.get("launch").asBoolean()).isFalse();
    }

    @Test
    public void aCompletedTurnPrintsNullClassificationFields() throws Exception {
        Path in = file(prompt("s1", 1).toString(), endTurn("s1", 1, 2).toString());

        JsonNode t = Cli.run("classify", in.toString()).objects().get(0);

        assertThat(t.get("outcome").asText()).isEqualTo("completed");
        for (String field : List.of("code", "class", "confidence", "rule_id", "catalogue_version", "scope", "retry_after", "reset_at")) {
            assertThat(t.get(field).isNull()).as(field).isTrue();
        }
    }

    @Test
    public void turnsArePrintedBySessionInOrderOfFirstAppearanceWhateverOrderTheyClosedIn() throws Exception {
        Path in = file(prompt("a", 1).toString(), prompt("b", 1).toString(), endTurn("b", 1, 2).toString(),
                overloaded("a", 1, 2).toString());

        List<JsonNode> out = Cli.run("classify", in.toString()).objects();

        assertThat(out).extracting(o -> o.get("session_id").asText()).containsExactly("a", "b");
    }

    @Test
    public void malformedLinesAreReportedWithLineNumberAndReasonAndSkipped() throws Exception {
        ObjectNode missing = endTurn("s1", 1, 3);
        missing.remove("seq");
        ObjectNode badEnum = endTurn("s1", 1, 4);
        badEnum.put("source", "carrier_pigeon");
        ObjectNode oversized = endTurn("s1", 1, 5);
        oversized.put("note", CANARY + "x".repeat(300 * 1024));
        Path in = file(
                prompt("s1", 1).toString(),                          // 1
                "{\"session_id\":\"s1\", \"seq\": " + CANARY,        // 2: not JSON
                missing.toString(),                                  // 3: no seq
                badEnum.toString(),                                  // 4: unknown source
                oversized.toString(),                                // 5: > 256 KiB
                "[\"" + CANARY + "\"]",                              // 6: not an object
                overloaded("s1", 1, 6).toString());                  // 7

        Cli.Run run = Cli.run("classify", in.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.err())
                .contains("line 2: invalid_json: ")
                .contains("line 3: missing_field: required field seq is missing")
                .contains("line 4: invalid_field: field source must be one of")
                .contains("line 5: oversized: ")
                .contains("line 6: invalid_json: ")
                .contains("7 lines, 2 frames accepted, 5 rejected; 1 turn closed, 0 open")
                .doesNotContain(CANARY);
        assertThat(run.objects()).singleElement().satisfies(t -> assertThat(t.get("code").asText()).isEqualTo("provider_overloaded"));
    }

    @Test
    public void aDynamicProfileWithoutRoutingIdentityIsRejectedLikeOnTheTopic() throws Exception {
        ObjectNode dynamic = prompt("s1", 1);
        dynamic.put("profile_kind", "dynamic");

        Cli.Run run = Cli.run("classify", file(dynamic.toString()).toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).contains("line 1: missing_routing_identity: field workspace_id is required");
    }

    @Test
    public void turnsStillOpenAtTheEndAreCountedOnStderrAndGetNoOutcome() throws Exception {
        Path in = file(prompt("open-a", 1).toString(), prompt("open-b", 2).toString(), prompt("s1", 1).toString(),
                endTurn("s1", 1, 2).toString());

        Cli.Run run = Cli.run("classify", in.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.objects()).extracting(o -> o.get("session_id").asText()).containsExactly("s1");
        assertThat(run.err()).contains("1 turn closed, 2 open").contains("open at end of input, no outcome: 2 turns (open-a/1, open-b/2)");
    }

    @Test
    public void generationZeroFramesAreNeverClassified() throws Exception {
        Path in = file(prompt("s0", 0).toString(), overloaded("s0", 0, 2).toString());

        Cli.Run run = Cli.run("classify", in.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("0 turns closed, 0 open");
    }

    @Test
    public void aDashReadsStandardInput() {
        String stdin = prompt("s1", 1) + "\n" + overloaded("s1", 1, 2) + "\n";

        Cli.Run run = Cli.withStdin(stdin, "classify", "-");

        assertThat(run.exitCode()).isZero();
        assertThat(run.objects()).singleElement().satisfies(t -> assertThat(t.get("session_id").asText()).isEqualTo("s1"));
        assertThat(run.err()).startsWith("standard input: 2 lines");
    }

    @Test
    public void prettyPrintsTheSameObjectOverSeveralLines() throws Exception {
        Path in = file(prompt("s1", 1).toString(), overloaded("s1", 1, 2).toString());

        Cli.Run pretty = Cli.run("classify", "--pretty", in.toString());
        Cli.Run plain = Cli.run("classify", in.toString());

        assertThat(pretty.out().lines().count()).isGreaterThan(10);
        assertThat(Cli.JSON.readTree(pretty.out())).isEqualTo(plain.objects().get(0));
    }

    @Test
    public void anAlternativeRuleFileDecidesTheClassification() throws Exception {
        Path rules = dir.resolve("rules.json");
        Files.writeString(rules, """
                {"catalogue_version":"test-errors.v7","rules":[{"id":"test.overloaded_is_quota.v1","priority":5,
                 "why":"a test rule","when":[{"in":["error.message"],"literal_ci":"overloaded"}],
                 "code":"quota_limited","class":"hard","confidence":"medium","scope":"provider"}]}""");
        Path in = file(prompt("s1", 1).toString(), overloaded("s1", 1, 2).toString());

        JsonNode t = Cli.run("classify", "--rules", rules.toString(), in.toString()).objects().get(0);

        assertThat(t.get("rule_id").asText()).isEqualTo("test.overloaded_is_quota.v1");
        assertThat(t.get("catalogue_version").asText()).isEqualTo("test-errors.v7");
        assertThat(t.get("code").asText()).isEqualTo("quota_limited");
    }

    @Test
    public void anInvalidRuleFileExitsOneNamingTheRule() throws Exception {
        Path rules = dir.resolve("bad.json");
        Files.writeString(rules, """
                {"catalogue_version":"test-errors.v1","rules":[{"id":"test.bad_code.v1","priority":5,"why":"w",
                 "when":[{"in":["error.message"],"literal":"x"}],"code":"no_such_code","class":"hard",
                 "confidence":"high","scope":"provider"}]}""");

        Cli.Run run = Cli.run("classify", "--rules", rules.toString(), file(prompt("s1", 1).toString()).toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("invalid rule file").contains("test.bad_code.v1");
        assertThat(run.out()).isEmpty();
    }

    @Test
    public void aMissingInputFileExitsOne() {
        Cli.Run run = Cli.run("classify", dir.resolve("nope.jsonl").toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("cannot read").contains("nope.jsonl").contains("no such file");
    }

    @Test
    public void aMissingFileArgumentIsAUsageError() {
        Cli.Run run = Cli.run("classify");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("FILE|-");
    }

    @Test
    public void anUnknownOptionIsAUsageError() throws Exception {
        assertThat(Cli.run("classify", "--frobnicate", file("").toString()).exitCode()).isEqualTo(2);
    }

    @Test
    public void bytesThatAreNotUtf8AreRejectedAsALineNotAsTheRun() throws Exception {
        Path in = dir.resolve("latin1.jsonl");
        byte[] bad = "{\"session_id\":\"s\u00e9\"}\n".getBytes(StandardCharsets.ISO_8859_1);
        byte[] good = (prompt("s1", 1) + "\n" + overloaded("s1", 1, 2) + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[bad.length + good.length];
        System.arraycopy(bad, 0, all, 0, bad.length);
        System.arraycopy(good, 0, all, bad.length, good.length);
        Files.write(in, all);

        Cli.Run run = Cli.run("classify", in.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).contains("line 1: missing_field");
        assertThat(run.objects()).hasSize(1);
    }

    @Test
    public void helpListsTheOfflineCommands() {
        Cli.Run run = Cli.run("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("classify").contains("catalogue");
    }

    @Test
    public void aBadFrameInsideASequenceLineIsReportedWithItsLineAndFrameNumber() throws Exception {
        ObjectNode bad = overloaded("s1", 1, 2);
        bad.put("occurred_at", "yesterday");
        ObjectNode sequence = Cli.JSON.createObjectNode().put("name", "one");
        sequence.putArray("frames").add(prompt("s1", 1)).add(bad).add(endTurn("s1", 1, 3));

        Cli.Run run = Cli.run("classify", "--corpus", file(sequence.toString()).toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).contains("line 1, frame 2: invalid_field: field occurred_at must be an RFC 3339 date-time");
        assertThat(run.objects()).singleElement().satisfies(t -> assertThat(t.get("outcome").asText()).isEqualTo("completed"));
    }

    @Test
    public void withTheCorpusOptionAPlainFrameLineIsRejected() throws Exception {
        Cli.Run run = Cli.run("classify", "--corpus", file(prompt("s1", 1).toString()).toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).contains("line 1: missing_field: line is not a sequence object with a frames array");
    }
}
