package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code recourse classify} over the corpus {@code sequences.jsonl}: every
 * sequence's expectation (outcome, code, class, replay_safe, retry_after/reset_at within 1 s) is
 * reproduced, both from the corpus file itself ({@code --corpus} and auto-detected) and from its
 * frames flattened into plain JSONL in a shuffled arrival order with all sessions interleaved.
 */
public class ClassifyCorpusTest {

    private static final String SEQUENCES = "corpus/sequences.jsonl";
    /** Fixed so a failure reproduces on every machine. */
    private static final long SEED = 20260601L;

    @TempDir
    public static Path dir;

    private static Cli.Run corpusRun;
    private static Cli.Run flatRun;

    @BeforeAll
    public static void classifyTheCorpusBothWays() throws Exception {
        Path corpus = dir.resolve("sequences.jsonl");
        Files.writeString(corpus, Cli.resource(SEQUENCES));
        corpusRun = Cli.run("classify", "--corpus", corpus.toString());

        Path flat = dir.resolve("frames.jsonl");
        Files.writeString(flat, shuffledFrames().stream().map(JsonNode::toString).collect(Collectors.joining("\n", "", "\n")));
        flatRun = Cli.run("classify", flat.toString());
    }

    public static Stream<Arguments> sequences() {
        return Cli.jsonLines(SEQUENCES).stream().map(l -> Arguments.of(Named.of(l.get("name").asText(), l)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sequences")
    public void classifyOnTheCorpusFileReproducesTheSequenceExpectation(JsonNode sequence) {
        assertExpectation(sequence, corpusRun);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sequences")
    public void classifyOnShuffledFlattenedFramesReproducesTheSequenceExpectation(JsonNode sequence) {
        assertExpectation(sequence, flatRun);
    }

    @Test
    public void bothRunsExitZeroRejectNothingAndLeaveNoTurnOpen() {
        for (Cli.Run run : List.of(corpusRun, flatRun)) {
            assertThat(run.exitCode()).isZero();
            assertThat(run.err()).contains(" 0 rejected;").contains(" 0 open").doesNotContain("open at end of input");
        }
        assertThat(flatRun.objects()).hasSameSizeAs(corpusRun.objects());
    }

    @Test
    public void sequenceLinesAreRecognizedWithoutTheCorpusOption() throws Exception {
        Path corpus = dir.resolve("auto.jsonl");
        Files.writeString(corpus, Cli.resource(SEQUENCES));

        Cli.Run auto = Cli.run("classify", corpus.toString());

        assertThat(auto.exitCode()).isZero();
        assertThat(auto.out()).isEqualTo(corpusRun.out());
    }

    private static void assertExpectation(JsonNode sequence, Cli.Run run) {
        String name = sequence.get("name").asText();
        JsonNode expected = sequence.get("expected");
        String session = sequence.get("frames").get(0).get("session_id").asText();
        List<JsonNode> turns = run.objects().stream().filter(o -> o.get("session_id").asText().equals(session)).toList();
        boolean setupOnly = true;
        for (JsonNode f : sequence.get("frames")) {
            setupOnly &= f.get("prompt_generation").asInt() == 0;
        }
        if (setupOnly) {
            assertThat(turns).as(name + ": generation 0 is never classified").isEmpty();
            return;
        }
        assertThat(turns).as(name).hasSize(1);
        JsonNode t = turns.get(0);
        assertThat(t.get("prompt_generation").asInt()).as(name).isPositive();
        assertThat(t.get("outcome").asText()).as(name + " outcome").isEqualTo(expected.get("outcome").asText());
        assertThat(t.get("replay_safe").asBoolean()).as(name + " replay_safe").isEqualTo(expected.get("replay_safe").asBoolean());
        assertThat(t.get("code").isNull() ? null : t.get("code").asText()).as(name + " code")
                .isEqualTo(expected.get("code").isNull() ? null : expected.get("code").asText());
        assertThat(t.get("class").isNull() ? null : t.get("class").asText()).as(name + " class")
                .isEqualTo(expected.get("class").isNull() ? null : expected.get("class").asText());
        if (expected.get("code").isNull()) {
            assertThat(t.get("rule_id").isNull()).as(name + ": no classification fields").isTrue();
            assertThat(t.get("confidence").isNull()).isTrue();
            return;
        }
        assertThat(t.get("catalogue_version").asText()).isEqualTo("provider-errors.v2");
        assertThat(t.get("rule_id").asText()).isNotBlank();
        assertHint(name + " retry_after", t.get("retry_after"), expected.path("retry_after"));
        assertHint(name + " reset_at", t.get("reset_at"), expected.path("reset_at"));
    }

    private static void assertHint(String what, JsonNode actual, JsonNode expected) {
        if (expected.isNull() || expected.isMissingNode()) {
            assertThat(actual.isNull()).as(what + " is null").isTrue();
        } else {
            assertThat(actual.isNull()).as(what + " is set").isFalse();
            assertThat(Instant.parse(actual.asText())).as(what)
                    .isCloseTo(Instant.parse(expected.asText()), within(1, ChronoUnit.SECONDS));
        }
    }

    /**
     * Every corpus frame as one envelope, all sessions interleaved in a fully random order —
     * terminal frames included, so many arrive before frames of their own turn: classify must
     * answer as if each turn had arrived in {@code seq} order.
     */
    private static List<JsonNode> shuffledFrames() {
        List<JsonNode> all = new ArrayList<>();
        for (JsonNode line : Cli.jsonLines(SEQUENCES)) {
            line.get("frames").forEach(all::add);
        }
        List<JsonNode> order = new ArrayList<>(all);
        Collections.shuffle(order, new Random(SEED));
        assertThat(order).isNotEqualTo(all);
        return order;
    }
}
