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
 * ({@code corpus/observed/cases-*.jsonl}, the spent {@code holdout-*.jsonl}, {@code round3-*.jsonl} and
 * {@code round4-test.jsonl}, and the development parts {@code round4-dev.jsonl} and {@code round5-dev.jsonl}):
 * {@code recourse catalogue score --split dev|all} reports no unsafe classification (an automatic
 * retry where the truth is not transient), no silent failure (a failing turn reported completed)
 * and every look-alike negative kept completed. The accuracy figures are measurements, not
 * invariants; those of the spent and development parts of rounds 3 to 5 are held as floors.
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
     * invariants hold there.
     */
    @Test
    void roundFourDevNoUnsafeNoSilentEveryNegativeKept() throws Exception {
        assertSafety("dev", "round4-dev\\.jsonl", 0, "--min-exact", "0.98", "--min-policy", "0.98");
    }

    /**
     * Round 4's test part ({@code round4-test.jsonl}): scored once (README, "catalogue score"), then
     * studied and written against, so it is development data since and the invariants hold over it,
     * with its accuracy held as a floor.
     */
    @Test
    void spentRoundFourTestNoUnsafeNoSilentEveryNegativeKept() throws Exception {
        assertSafety("test", "round4-test\\.jsonl", 0, "--min-exact", "0.98", "--min-policy", "0.98");
    }

    /**
     * Round 5's development part ({@code round5-dev.jsonl}): the rules were written from it, so the
     * invariants hold there. Exact accuracy is held at 0.96: the misses left are cases whose text
     * does not say the labelled cause (a bare "Rate limit reached" traced to billing or capacity, a
     * 401 that may be a key or a login); policy-equivalent accuracy at 0.98.
     */
    @Test
    void roundFiveDevNoUnsafeNoSilentEveryNegativeKept() throws Exception {
        assertSafety("dev", "round5-dev\\.jsonl", 0, "--min-exact", "0.96", "--min-policy", "0.98");
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
