package io.recourse.cli;

import io.recourse.bench.Bench;
import io.recourse.bench.BenchReport;
import io.recourse.bench.PurgeResult;
import io.recourse.bench.RunResult;
import io.recourse.bench.Scenario;
import io.recourse.bench.Workload;
import io.recourse.config.RecourseConfig;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code recourse bench}: Recourse's throughput, latency and state side by side with a
 * pass-through copy of the same frames (method in {@code BENCHMARKS.md}). Uses the
 * embedded broker of its own (in {@code --work-dir}) unless {@code --bootstrap-servers}
 * ({@link ClusterOptions}) or {@code bootstrap.servers} names a cluster; deletes every topic and
 * directory it created.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmark: pass-through vs the full Recourse topology, at_least_once and exactly_once_v2; "
                + "frames/s, latency, state per session, scaling. Prints a Markdown report.")
public final class BenchCommand implements Callable<Integer> {

    @Mixin
    ClusterOptions connection;

    @Spec
    CommandSpec spec;

    @Option(names = "--sessions", defaultValue = "10000", description = "Sessions per run (default ${DEFAULT-VALUE}).")
    int sessions;

    @Option(names = "--turns", defaultValue = "1", description = "Turns per session (default ${DEFAULT-VALUE}).")
    int turns;

    @Option(names = "--runs", defaultValue = "3", description = "Runs per scenario; medians are reported (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--guarantee", split = ",", defaultValue = "at_least_once,exactly_once_v2",
            description = "Processing guarantees to compare (default ${DEFAULT-VALUE}).")
    List<String> guarantees;

    @Option(names = "--threads", split = ",", defaultValue = "1,2",
            description = "Stream-thread counts to compare, both topologies at exactly_once_v2 (default ${DEFAULT-VALUE}).")
    List<Integer> threads;

    @Option(names = "--instances", split = ",", defaultValue = "1,2",
            description = "Application instances (in this JVM) to compare, both topologies (default ${DEFAULT-VALUE}).")
    List<Integer> instances;

    @Option(names = "--topology", split = ",", paramLabel = "pass-through|full", defaultValue = "pass-through,full",
            converter = TopologyKindConverter.class,
            description = "Topologies to run (default ${DEFAULT-VALUE}); e.g. --topology full for a state-and-memory point.")
    List<Scenario.Kind> topologies;

    @Option(names = "--workload", paramLabel = "uniform|realistic", defaultValue = "uniform",
            converter = WorkloadConverter.class,
            description = "Workload mix (default ${DEFAULT-VALUE}): uniform (frames spread evenly over the open sessions) or "
                    + "realistic (duty cycles: bursts of 20-60 frames at 10-50 frames/s, then idle; 5%% Office runs with "
                    + "route configurations, run requests and a scripted dispatcher; BENCHMARKS.md, Method).")
    Workload.Mix workload;

    @Option(names = "--seed", defaultValue = "8", description = "Workload seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--latency", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Run the paced latency scenario at half the full topology's rate (default on; --no-latency skips it).")
    boolean latency;

    @Option(names = "--warmup", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "First run both topologies once on half of the sessions, unreported (default on; off with --quick).")
    boolean warmup;

    @Option(names = "--open-turns", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "After the workload, send one open half-turn per session and measure the state it adds "
                    + "and run the abandoned-turn phase (default on; --no-open-turns skips both, e.g. for 1,000,000 sessions).")
    boolean openTurns;

    @Option(names = "--quick", description = "Smoke run: at most 300 sessions, 1 run, 1 thread, 1 instance, no warm-up "
            + "(overrides --sessions, --runs, --threads, --instances, --warmup).")
    boolean quick;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where state and the embedded broker's data go (default: a new temporary directory; deleted afterwards).")
    Path workDir;

    @Option(names = "--report", paramLabel = "FILE", description = "Also write the Markdown report to FILE.")
    Path reportFile;

    @Override
    public Integer call() throws Exception {
        validateSizes();
        RecourseConfig base = connection.load();
        if (quick) {
            sessions = Math.min(sessions, 300);
            runs = 1;
            threads = List.of(1);
            instances = List.of(1);
            warmup = false;
        }
        for (String g : guarantees) {
            if (!g.equals("at_least_once") && !g.equals("exactly_once_v2")) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                        "--guarantee: expected at_least_once or exactly_once_v2, got " + g);
            }
        }
        Path dir = workDir != null ? workDir : Files.createTempDirectory("recourse-bench-");
        PrintWriter out = spec.commandLine().getOut();
        out.printf("recourse bench: %s workload, %d sessions × %d turns, %d run(s), guarantees %s, threads %s, instances %s, load %.1f%n",
                workload.name().toLowerCase(java.util.Locale.ROOT), sessions, turns, runs, guarantees, threads, instances,
                Bench.loadAverage());
        out.flush();
        Bench.Settings settings = new Bench.Settings(sessions, turns, seed, runs, guarantees, threads, instances, latency,
                openTurns, warmup, base, dir, topologies, workload);
        List<RunResult> results;
        Optional<PurgeResult> abandoned;
        try (Bench bench = Bench.start(settings)) {
            results = bench.runAll(r -> {
                out.println(BenchReport.line(r));
                out.flush();
            });
            abandoned = bench.abandoned();
        }
        String report = BenchReport.markdown(results, abandoned);
        out.println();
        out.print(report);
        out.flush();
        if (reportFile != null) {
            Files.writeString(reportFile, report, StandardCharsets.UTF_8);
        }
        return results.stream().anyMatch(RunResult::timedOut) || abandoned.map(p -> !p.purgedAndCounted()).orElse(false) ? 1 : 0;
    }

    /** Rejects sizes that cannot run and a report path that cannot be written, before any broker starts. */
    private void validateSizes() {
        positive("--sessions", List.of(sessions));
        positive("--turns", List.of(turns));
        positive("--runs", List.of(runs));
        positive("--threads", threads);
        positive("--instances", instances);
        if (reportFile != null) {
            Path parent = reportFile.toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)
                    || (Files.exists(reportFile) && !Files.isWritable(reportFile))) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                        "--report: cannot write " + reportFile + " (its directory must exist and be writable)");
            }
        }
    }

    private void positive(String option, List<Integer> values) {
        for (int v : values) {
            if (v < 1) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                        option + ": expected a positive number, got " + v);
            }
        }
    }

    /** {@code uniform} or {@code realistic} → {@link Workload.Mix}; anything else is a usage error naming both. */
    static final class WorkloadConverter implements picocli.CommandLine.ITypeConverter<Workload.Mix> {
        @Override
        public Workload.Mix convert(String value) {
            for (Workload.Mix m : Workload.Mix.values()) {
                if (m.name().toLowerCase(java.util.Locale.ROOT).equals(value)) {
                    return m;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("expected uniform or realistic, got '" + value + "'");
        }
    }

    /** {@code pass-through} or {@code full} → {@link Scenario.Kind}; anything else is a usage error naming both. */
    static final class TopologyKindConverter implements picocli.CommandLine.ITypeConverter<Scenario.Kind> {
        @Override
        public Scenario.Kind convert(String value) {
            for (Scenario.Kind k : Scenario.Kind.values()) {
                if (k.label().equals(value)) {
                    return k;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("expected pass-through or full, got '" + value + "'");
        }
    }
}
