package io.recourse.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reliability harness at CI size (RELIABILITY.md): a broker process and a Recourse process,
 * a few hundred Kanban sessions and a few dozen Office runs, {@code kill -9} of Recourse with the
 * state kept and once wiped, one broker bounce, the hostile and planted-secrets corpora; then
 * the checks on every topic, the process logs and the {@code /metrics} scrape. The report is
 * written to {@code target/reliability-report.txt}. {@code -Dreliability.size=full} runs the
 * documented full size.
 */
class ReliabilityIT {

    @Test
    void survivesKillsBouncesAndHostileInputWithoutLossDuplicatesOrLeaks(@TempDir Path dir) throws Exception {
        ReliabilityHarness.Report report = new ReliabilityHarness(ReliabilityHarness.Size.fromSystemProperties(), dir, System.out).run();
        String summary = report.summary();
        System.out.println(summary);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "reliability-report.txt"), summary, StandardCharsets.UTF_8);
        assertThat(report.violations()).as(summary).isEmpty();
    }
}
