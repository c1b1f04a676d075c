package io.recourse.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * Formats {@link RunResult}s as the Markdown tables of {@code BENCHMARKS.md}: medians per
 * scenario, the full/pass-through ratio per guarantee, the paced latency, state
 * and memory, and the targets marked met or missed.
 */
public final class BenchReport {

    /** Target: full ≥ 0.8 × pass-through frames/s at exactly_once_v2 (uniform workload; the realistic one aims at 1.0). */
    public static final double RATIO_TARGET = 0.8;
    /** Target: p99 terminal frame → Classification readable, at half the maximum rate. */
    public static final double P99_TARGET_MS = 150;
    /** Target: state per idle session once its closed turns are purged, bytes. */
    public static final double IDLE_SESSION_TARGET_BYTES = 512;

    private BenchReport() {
    }

    /** The whole report, without an abandoned-turn phase. */
    public static String markdown(Collection<RunResult> results) {
        return markdown(results, Optional.empty());
    }

    /** The whole report, with the abandoned-turn phase's section when it ran. */
    public static String markdown(Collection<RunResult> results, Optional<PurgeResult> abandoned) {
        Map<Scenario, List<RunResult>> by = Bench.byScenario(results);
        StringBuilder b = new StringBuilder();
        b.append("### Throughput (end to end, medians)\n\n")
                .append("| topology | guarantee | threads | instances | records | runs | median s | median frames/s | frames/s of each run | full ÷ pass-through (same guarantee, threads, instances) |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|\n");
        by.forEach((s, rs) -> {
            if (s.rate() > 0) {
                return;
            }
            b.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %d | %.1f | %s | %s | %s |%n",
                    s.topology().label(), s.guarantee(), s.threads(), s.instances(), rs.get(0).records(), rs.size(),
                    med(rs, RunResult::seconds), num(med(rs, RunResult::framesPerSecond)), each(rs), ratio(by, s)));
        });
        b.append("\n### Latency: failing turn's terminal frame produced → output readable (read_committed), ms\n\n")
                .append("| scenario | paced at frames/s | runs | Classification p50 | Classification p99 | RecoveryState `scheduled` p50 | `scheduled` p99 | samples (cls / sched) |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        by.forEach((s, rs) -> {
            if (s.rate() <= 0) {
                return;
            }
            b.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %s | %d / %d |%n", s.label(), num(s.rate()),
                    rs.size(), ms(med(rs, RunResult::classificationP50)), ms(med(rs, RunResult::classificationP99)),
                    ms(med(rs, RunResult::scheduledP50)), ms(med(rs, RunResult::scheduledP99)),
                    rs.get(0).classificationCount(), rs.get(0).scheduledCount()));
        });
        b.append("\n### State and memory (full topology, after the workload; medians)\n\n")
                .append("| scenario | bytes per idle session | bytes per open turn | per store (bytes per session) | RocksDB SST + memtables | heap Δ after GC | RSS (JVM incl. broker) |\n")
                .append("|---|---|---|---|---|---|---|\n");
        by.forEach((s, rs) -> {
            if (s.topology() != Scenario.Kind.FULL || s.rate() > 0) {
                return;
            }
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s |%n", s.label(),
                    num(med(rs, RunResult::stateBytesPerSession)), num(med(rs, RunResult::stateBytesPerOpenTurn)),
                    stores(rs), mib(med(rs, RunResult::rocksDbBytes)), mib(med(rs, RunResult::heapDeltaBytes)),
                    mib(med(rs, RunResult::rssBytes))));
        });
        b.append(officeSection(by));
        abandoned.ifPresent(p -> b.append(abandonedSection(p)));
        b.append("\n### Targets\n\n").append(targets(by));
        return b.toString();
    }

    /** The routing owner under the realistic workload (full runs with Office runs), one row per run; empty without any. */
    static String officeSection(Map<Scenario, List<RunResult>> by) {
        StringBuilder b = new StringBuilder();
        by.forEach((s, rs) -> rs.stream().filter(r -> r.office() != null).forEach(r -> {
            OfficeResult o = r.office();
            b.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %.1f | %s | %s | %s / %s | %d | %s | %s | %d | %s |%n",
                    s.label(), o.runs(), o.routeCommands(), o.runStates(), o.seconds(), num(o.decisionsPerSecond()),
                    counts(o.failedTurns()), ms(o.answerP50()), ms(o.answerP99()), o.answerCount(), counts(o.actions()),
                    counts(o.runsByStatus()), o.runsWithCompletedTurn(), o.settled() ? "yes" : "no"));
        }));
        if (b.length() == 0) {
            return "";
        }
        return "\n### Routing owner (realistic workload: Office runs, scripted dispatcher)\n\n"
                + "| scenario | Office runs | RouteCommands | RunStates | s | decisions/s | failed turns | "
                + "failed turn → RouteCommand/RunState p50 / p99 ms | answered | actions | runs per status reached | "
                + "runs with a completed turn | settled |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n" + b;
    }

    private static String counts(Map<String, Integer> m) {
        List<String> parts = new ArrayList<>();
        new TreeMap<>(m).forEach((k, v) -> parts.add(k + " " + v));
        return parts.isEmpty() ? "–" : String.join(", ", parts);
    }

    private static String abandonedSection(PurgeResult p) {
        return String.format(Locale.ROOT, "%n### Abandoned turns (idle bound %.0f s, retention %.0f s for this phase)%n%n"
                        + "| sessions with one open turn | turns in the store | signals readable | turn-store changelog bytes "
                        + "| counted evidence_expired | turns after retention | signals readable after retention "
                        + "| turn-store changelog bytes after | purged and counted |%n"
                        + "|---|---|---|---|---|---|---|---|---|%n| %d | %d | %d | %d | %d | %d | %d | %d | %s |%n",
                p.idleMillis() / 1000.0, p.retentionMillis() / 1000.0, p.sessions(), p.openTurnsBefore(), p.signalsBefore(),
                p.turnStoreBytesBefore(), p.expiredCounted(), p.turnsAfterPurge(), p.signalsAfterPurge(),
                p.turnStoreBytesAfter(), p.purgedAndCounted() ? "yes" : "NO");
    }

    private static String targets(Map<Scenario, List<RunResult>> by) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<Scenario, List<RunResult>> e : by.entrySet()) {
            Scenario s = e.getKey();
            if (s.topology() == Scenario.Kind.FULL && s.rate() <= 0 && s.threads() == 1 && s.instances() == 1
                    && s.guarantee().equals("exactly_once_v2")) {
                double r = ratioValue(by, s);
                b.append(String.format(Locale.ROOT, "- full ≥ %.1f × pass-through at exactly_once_v2: %.2f → %s%n",
                        RATIO_TARGET, r, Double.isNaN(r) ? "not measured" : r >= RATIO_TARGET ? "met" : "MISSED"));
                double idle = med(e.getValue(), RunResult::stateBytesPerSession);
                b.append(String.format(Locale.ROOT, "- ≤ %.0f B state per idle session: %s bytes → %s%n", IDLE_SESSION_TARGET_BYTES, num(idle),
                        Double.isNaN(idle) ? "not measured" : idle <= IDLE_SESSION_TARGET_BYTES ? "met" : "MISSED"));
            }
            if (s.rate() > 0) {
                double p99 = med(e.getValue(), RunResult::classificationP99);
                b.append(String.format(Locale.ROOT, "- p99 terminal → Classification ≤ %.0f ms at half the maximum rate: %s ms → %s%n",
                        P99_TARGET_MS, ms(p99), Double.isNaN(p99) ? "not measured" : p99 <= P99_TARGET_MS ? "met" : "MISSED"));
            }
        }
        return b.toString();
    }

    private static String ratio(Map<Scenario, List<RunResult>> by, Scenario s) {
        double r = ratioValue(by, s);
        return Double.isNaN(r) ? "" : String.format(Locale.ROOT, "%.2f", r);
    }

    private static double ratioValue(Map<Scenario, List<RunResult>> by, Scenario s) {
        if (s.topology() != Scenario.Kind.FULL) {
            return Double.NaN;
        }
        // the pass-through at the same guarantee and scaling; else the single-thread, single-instance one
        List<RunResult> pass = by.get(new Scenario(Scenario.Kind.PASS_THROUGH, s.guarantee(), s.threads(), s.instances(), 0, false));
        if (pass == null) {
            pass = by.get(new Scenario(Scenario.Kind.PASS_THROUGH, s.guarantee(), 1, 1, 0, false));
        }
        if (pass == null) {
            return Double.NaN;
        }
        return med(by.get(s), RunResult::framesPerSecond) / med(pass, RunResult::framesPerSecond);
    }

    private static String stores(List<RunResult> rs) {
        Map<String, List<Double>> per = new TreeMap<>();
        for (RunResult r : rs) {
            int sessions = (int) Math.round(r.stateBytesPerSession() == 0 ? 1
                    : r.storeBytes().values().stream().mapToLong(Long::longValue).sum() / r.stateBytesPerSession());
            r.storeBytes().forEach((k, v) -> per.computeIfAbsent(k, x -> new ArrayList<>()).add((double) v / Math.max(1, sessions)));
        }
        List<String> parts = new ArrayList<>();
        per.forEach((k, v) -> parts.add(k + " " + num(Bench.median(v.stream().mapToDouble(Double::doubleValue).toArray()))));
        return String.join("; ", parts);
    }

    static double med(List<RunResult> rs, ToDoubleFunction<RunResult> f) {
        return Bench.median(rs.stream().mapToDouble(f).filter(d -> !Double.isNaN(d)).toArray());
    }

    private static String each(List<RunResult> rs) {
        List<String> out = new ArrayList<>();
        rs.forEach(r -> out.add(num(r.framesPerSecond()) + (r.timedOut() ? " (timed out)" : "")));
        return String.join(", ", out);
    }

    private static String num(double d) {
        return Double.isNaN(d) ? "–" : String.format(Locale.ROOT, "%,.0f", d);
    }

    private static String ms(double d) {
        return Double.isNaN(d) ? "–" : String.format(Locale.ROOT, "%.0f", d);
    }

    private static String mib(double d) {
        return Double.isNaN(d) ? "–" : String.format(Locale.ROOT, "%.1f MiB", d / (1024 * 1024));
    }

    /** One line per run, for progress output. */
    public static String line(RunResult r) {
        return String.format(Locale.ROOT, "%-28s %9d records %7.1f s %,9.0f frames/s  cls p50/p99 %s/%s ms  sched p50/p99 %s/%s ms  state/session %s B  open turn %s B  load %.1f%s",
                r.scenario().label(), r.records(), r.seconds(), r.framesPerSecond(), ms(r.classificationP50()),
                ms(r.classificationP99()), ms(r.scheduledP50()), ms(r.scheduledP99()), num(r.stateBytesPerSession()),
                num(r.stateBytesPerOpenTurn()), r.loadAverage(), r.timedOut() ? "  TIMED OUT" : "")
                + (r.office() == null ? "" : String.format(Locale.ROOT,
                        "  office: %d runs, %d decisions, %s decisions/s, failed turn → answer p50/p99 %s/%s ms (%d)",
                        r.office().runs(), r.office().routeCommands() + r.office().runStates(),
                        num(r.office().decisionsPerSecond()), ms(r.office().answerP50()), ms(r.office().answerP99()),
                        r.office().answerCount()));
    }
}
