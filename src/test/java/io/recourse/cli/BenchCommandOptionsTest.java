package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code recourse bench} rejects sizes and paths it cannot use before it starts a broker (exit 2, the option named). */
public class BenchCommandOptionsTest {

    @ParameterizedTest(name = "bench {0} is a usage error naming {1}")
    @CsvSource(delimiter = '|', value = {
            "--sessions 0 | --sessions",
            "--sessions -5 | --sessions",
            "--turns 0 | --turns",
            "--runs 0 | --runs",
            "--threads 1,0 | --threads",
            "--instances 0 --quick | --instances",
            "--topology bogus | --topology",
            "--workload bursty | --workload",
            "--guarantee nonsense | --guarantee",
            "--report /nonexistent-dir-of-recourse/x.md --quick | --report"})
    public void badOptionsAreUsageErrors(String args, String option) {
        Cli.Run run = Cli.run(("bench " + args).split(" "));

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains(option).doesNotContain("Exception");
    }
}
