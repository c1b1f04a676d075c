package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shipped catalogue's safety invariants over the whole observed corpus
 * ({@code corpus/observed/cases-*.jsonl}, and the spent {@code holdout-*.jsonl} and {@code round3-*.jsonl}):
 * {@code recourse catalogue score --split dev|all} reports no unsafe classification (an automatic
 * retry where the truth is not transient), no silent failure (a failing turn reported completed)
 * and every look-alike negative kept completed. The accuracy figures are measurements, not
 * invariants; only round 3's are held, as a floor.
 */
class ObservedCorpusSafetyTest {

    /** The split the rules were written from: the invariants hold there. */
    @Test
    void devSplitNoUnsafeNoSilentEveryNegativeKept() throws Exception {
        assertSafety("dev");
    }

    /**
     * Both round-1 splits ({@code cases-*.jsonl}, dev and test): round 1's test split has been scored
     * (README, "catalogue score") and folded into development, so the invariants hold over all of it.
     * The spent held-out set has its own test below.
     */
    @Test
    void wholeCorpusNoUnsafeNoSilentEveryNegativeKept() throws Exception {
        assertSafety("all");
    }

    /**
     * The round-2 held-out set ({@code holdout-*.jsonl}): scored once with the rules it was held out
     * from (README, "catalogue score"), then studied and written against, so it is development data now
     * and the invariants hold over it too.
     */
    @Test
    void spentHoldoutNoUnsafeNoSilentEveryNegativeKept() throws Exception {
        assertSafety("all", "holdout-.*\\.jsonl", 9);
    }

    /**
     * Round 3 ({@code round3-dev.jsonl} and {@code round3-test.jsonl}): its test part was scored once
     * (README, "catalogue score") and is development data since, so the invariants hold over both
     * parts, and the accuracy reached on them is held as a floor (a rule change may raise it, not
     * lower it).
     */
    @Test
    void spentRoundThreeNoUnsafeNoSilentEveryNegativeKept() throws Exception {
        assertSafety("all", "round3-.*\\.jsonl", 1, "--min-exact", "0.98", "--min-policy", "0.98");
    }

    /**
     * Round 4's development part ({@code round4-dev.jsonl}): the rules were written from it, so the
     * invariants hold there. Its test part was scored once (README, "catalogue score") and is not
     * held to them.
     */
    @Test
    void roundFourDevNoUnsafeNoSilentEveryNegativeKept() throws Exception {
        assertSafety("dev", "round4-dev\\.jsonl", 0, "--min-exact", "0.98", "--min-policy", "0.98");
    }

    /**
     * Round 5's development part ({@code round5-dev.jsonl}): no automatic retry where the truth is
     * not transient (unsafe 0) and every look-alike negative kept.
     */
    @Test
    void roundFiveDevNoUnsafeEveryNegativeKept() throws Exception {
        URL url = ObservedCorpusSafetyTest.class.getClassLoader().getResource("corpus/observed/round5-dev.jsonl");
        assertThat(url).isNotNull();

        Cli.Run run = Cli.run("catalogue", "score", "--split", "dev", "--max-unsafe", "0", "--min-negatives-kept", "1",
                Path.of(url.toURI()).toString());

        assertThat(run.out()).contains("unsafe: 0\n").contains("negatives kept: 1.0000");
        assertThat(run.exitCode()).as("thresholds max-unsafe 0, min-negatives-kept 1").isZero();
    }

    private static void assertSafety(String split) throws Exception {
        assertSafety(split, "cases-.*\\.jsonl", 9);
    }

    private static void assertSafety(String split, String files, int moreThan, String... thresholds) throws Exception {
        URL url = ObservedCorpusSafetyTest.class.getClassLoader().getResource("corpus/observed");
        assertThat(url).isNotNull();
        List<String> args = new ArrayList<>(List.of("catalogue", "score", "--split", split,
                "--max-unsafe", "0", "--max-silent", "0", "--min-negatives-kept", "1"));
        args.addAll(List.of(thresholds));
        try (Stream<Path> paths = Files.list(Path.of(url.toURI()))) {
            paths.filter(p -> p.getFileName().toString().matches(files)).sorted()
                    .forEach(p -> args.add(p.toString()));
        }
        assertThat(args).as("observed case files").hasSizeGreaterThan(moreThan);

        Cli.Run run = Cli.run(args.toArray(String[]::new));

        assertThat(run.out()).contains("rules: classpath:catalogue/provider-errors.v2.json")
                .contains("unsafe: 0\n").contains("silent: 0\n").contains("negatives kept: 1.0000");
        assertThat(run.exitCode()).as("thresholds max-unsafe 0, max-silent 0, min-negatives-kept 1").isZero();
    }
}
