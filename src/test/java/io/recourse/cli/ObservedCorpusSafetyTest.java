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
 * ({@code corpus/observed/cases-*.jsonl}): {@code recourse catalogue score --split dev|all}
 * reports no unsafe classification (an automatic retry where the truth is not transient), no silent
 * failure (a failing turn reported completed) and every look-alike negative kept completed. The
 * accuracy figures are measurements, not invariants, and are not asserted here.
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
     * The held-out {@code holdout-*.jsonl} files are never read here.
     */
    @Test
    void wholeCorpusNoUnsafeNoSilentEveryNegativeKept() throws Exception {
        assertSafety("all");
    }

    private static void assertSafety(String split) throws Exception {
        URL url = ObservedCorpusSafetyTest.class.getClassLoader().getResource("corpus/observed");
        assertThat(url).isNotNull();
        List<String> args = new ArrayList<>(List.of("catalogue", "score", "--split", split,
                "--max-unsafe", "0", "--max-silent", "0", "--min-negatives-kept", "1"));
        try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
            files.filter(p -> p.getFileName().toString().matches("cases-.*\\.jsonl")).sorted()
                    .forEach(p -> args.add(p.toString()));
        }
        assertThat(args).as("observed case files").hasSizeGreaterThan(9);

        Cli.Run run = Cli.run(args.toArray(String[]::new));

        assertThat(run.out()).contains("rules: classpath:catalogue/provider-errors.v2.json")
                .contains("unsafe: 0\n").contains("silent: 0\n").contains("negatives kept: 1.0000");
        assertThat(run.exitCode()).as("thresholds max-unsafe 0, max-silent 0, min-negatives-kept 1").isZero();
    }
}
