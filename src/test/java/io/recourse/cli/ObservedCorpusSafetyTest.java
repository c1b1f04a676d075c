package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shipped catalogue's safety invariants over the whole observed corpus ({@code corpus/observed/},
 * one row per round and part below): {@code recourse catalogue score --split …} reports no unsafe
 * classification (an automatic retry where the truth is not transient), no silent failure (a failing
 * turn reported completed) and every look-alike negative kept completed. The accuracy figures are
 * measurements, not invariants; those reached on the development and spent parts of rounds 3 to 8 are
 * held as floors (a rule change may raise them, not lower them).
 */
class ObservedCorpusSafetyTest {

    /**
     * One row: a round's part.
     *
     * @param name      what the row holds and why the invariants hold there
     * @param files     file-name pattern under {@code corpus/observed/}
     * @param split     {@code dev}, {@code test} or {@code all}
     * @param minFiles  how many files the pattern must match (a renamed file must not make the row vacuous)
     * @param minExact  exact-code accuracy floor, {@code null} for none
     * @param minPolicy policy-equivalent accuracy floor, {@code null} for none
     */
    record Row(String name, String files, String split, int minFiles, String minExact, String minPolicy) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Row> rounds() {
        return Stream.of(
                // round 1: the split the rules were first written from, then both splits (its test split was
                // scored, README "catalogue score", and folded into development)
                new Row("round 1 dev split", "cases-.*\\.jsonl", "dev", 3, null, null),
                new Row("round 1 both splits", "cases-.*\\.jsonl", "all", 3, null, null),
                // round 2: the held-out set, scored once with the rules it was held out from, written against since
                new Row("round 2 held-out (spent)", "holdout-.*\\.jsonl", "all", 2, null, null),
                // round 3: its test part was scored once and is development data since
                new Row("round 3 both parts (test spent)", "round3-.*\\.jsonl", "all", 2, "0.98", "0.98"),
                new Row("round 4 dev", "round4-dev\\.jsonl", "dev", 1, "0.98", "0.98"),
                new Row("round 4 test (spent)", "round4-test\\.jsonl", "test", 1, "0.98", "0.98"),
                // round 5 dev: the misses left are texts that do not say the labelled cause (a bare "Rate limit
                // reached" traced to billing or capacity, a 401 that may be a key or a login)
                new Row("round 5 dev", "round5-dev\\.jsonl", "dev", 1, "0.96", "0.98"),
                // round 5 test: scored once on 2026-12-02 (exact 0.6763, policy 0.7554, silent 16), written
                // against since; the misses left do not say the labelled cause either
                new Row("round 5 test (spent)", "round5-test\\.jsonl", "test", 1, "0.95", "0.97"),
                // round 6 dev: scored once before any rule read it (exact 0.5477, policy 0.6224, unsafe 2, silent 72),
                // written against since; the misses left are labelled otherwise in earlier rounds (catalogue README)
                new Row("round 6 dev", "round6-dev\\.jsonl", "dev", 1, "0.94", "0.97"),
                // round 6 test: scored once on 2026-12-02 (exact 0.7771, policy 0.8344, silent 10, negatives 49/51),
                // written against since; the misses left are labelled otherwise in earlier rounds (catalogue README)
                new Row("round 6 test (spent)", "round6-test\\.jsonl", "test", 1, "0.96", "0.98"),
                // round 7 dev: scored once before any rule read it (exact 0.7195, policy 0.8211, unsafe 4, silent 13),
                // written against since; the misses left are labelled otherwise in earlier rounds (catalogue README)
                new Row("round 7 dev", "round7-dev\\.jsonl", "dev", 1, "0.94", "0.99"),
                // round 7 test: scored once on 2026-12-02 (exact 0.7946, policy 0.8661, unsafe 2, silent 6, negatives 46/47),
                // written against since
                new Row("round 7 test (spent)", "round7-test\\.jsonl", "test", 1, "0.98", "0.99"),
                // round 8 dev: scored once before any rule read it (exact 0.7400, policy 0.8080, unsafe 3, silent 18,
                // negatives 99/101), written against since; the misses left are labelled otherwise in earlier rounds
                new Row("round 8 dev", "round8-dev\\.jsonl", "dev", 1, "0.97", "0.99"),
                // round 9 dev: scored once before any rule read it (exact 0.7389, policy 0.8621, unsafe 0, silent 11),
                // written against since; the misses left are labelled otherwise in earlier rounds (catalogue README)
                new Row("round 9 dev", "round9-dev\\.jsonl", "dev", 1, "0.96", "0.97"),
                // round 8 test: scored once on 2026-12-02 (exact 0.8361, policy 0.8934, unsafe 1, silent 0, negatives
                // 59/59), spent since: its unsafe turn (a throttle whose wait is hours) fixed after the score
                new Row("round 8 test (spent)", "round8-test\\.jsonl", "test", 1, "0.84", "0.89"),
                // round 9 test: scored once on 2026-12-02 (exact 0.7757, policy 0.8692, unsafe 1, silent 6, negatives
                // 56/58), spent since: its silent turns and failed look-alikes fixed by format after the score
                new Row("round 9 test (spent)", "round9-test\\.jsonl", "test", 1, "0.84", "0.93"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rounds")
    void noUnsafeNoSilentEveryNegativeKeptAndTheFloorsHold(Row row) throws Exception {
        URL url = ObservedCorpusSafetyTest.class.getClassLoader().getResource("corpus/observed");
        assertThat(url).isNotNull();
        List<String> files;
        try (Stream<Path> paths = Files.list(Path.of(url.toURI()))) {
            files = paths.filter(p -> p.getFileName().toString().matches(row.files())).sorted().map(Path::toString).toList();
        }
        assertThat(files).as("observed case files matching %s", row.files()).hasSizeGreaterThanOrEqualTo(row.minFiles());
        List<String> args = new ArrayList<>(List.of("catalogue", "score", "--split", row.split(),
                "--max-unsafe", "0", "--max-silent", "0", "--min-negatives-kept", "1"));
        if (row.minExact() != null) {
            args.addAll(List.of("--min-exact", row.minExact()));
        }
        if (row.minPolicy() != null) {
            args.addAll(List.of("--min-policy", row.minPolicy()));
        }
        args.addAll(files);

        Cli.Run run = Cli.run(args.toArray(String[]::new));

        assertThat(run.out()).contains("rules: classpath:catalogue/provider-errors.v2.json")
                .contains("unsafe: 0\n").contains("silent: 0\n").contains("negatives kept: 1.0000");
        assertThat(run.exitCode()).as("%s: thresholds max-unsafe 0, max-silent 0, min-negatives-kept 1, min-exact %s, "
                + "min-policy %s\n%s", row, row.minExact(), row.minPolicy(), run.out()).isZero();
    }
}
