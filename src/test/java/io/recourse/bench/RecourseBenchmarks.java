package io.recourse.bench;

import io.recourse.classification.CatalogueBenchmark;
import io.recourse.classification.CatalogueMixSize;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs Recourse's JMH benchmarks of the pure stages and prints each score in
 * its natural unit: frame parsing (records/s), evidence assembly (frames/s), catalogue
 * classification (signals/s, the catalogue's {@link CatalogueBenchmark}), sanitizer (inputs/s)
 * and the interactive policy (events/s). Each benchmark: one fork, 2 × 2 s warm-up, 3 × 3 s
 * measurement, one thread. From the repository root:
 * <pre>
 * mvn -B -o -q test-compile dependency:build-classpath -Dmdep.outputFile=cp.txt
 * java -cp target/test-classes:target/classes:$(cat cp.txt) io.recourse.bench.RecourseBenchmarks [regex…]
 * </pre>
 */
public final class RecourseBenchmarks {

    private RecourseBenchmarks() {
    }

    public static void main(String[] args) throws RunnerException {
        List<Class<?>> all = List.of(FrameParsingBenchmark.class, EvidenceAssemblyBenchmark.class, CatalogueBenchmark.class,
                SanitizerBenchmark.class, InteractivePolicyBenchmark.class);
        ChainedOptionsBuilder options = new OptionsBuilder().threads(1);
        if (args.length == 0) {
            all.forEach(c -> options.include(c.getName().replace(".", "\\.") + "\\."));
        } else {
            for (String a : args) {
                options.include(a);
            }
        }
        Collection<RunResult> results = new Runner(options.build()).run();
        long signals = CatalogueMixSize.signals();
        int turns = CatalogueMixSize.turns();
        System.out.println();
        System.out.println("| benchmark | JMH score (ops/s) | per second | unit |");
        System.out.println("|---|---|---|---|");
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            double score = r.getPrimaryResult().getScore();
            double error = r.getPrimaryResult().getScoreError();
            String unit;
            double per;
            if (name.contains("CatalogueBenchmark") && "observed".equals(r.getParams().getParam("mix"))) {
                long observed = CatalogueMixSize.observedSignals();
                per = score * observed;
                unit = "signals (observed mix: " + observed + " signals, " + CatalogueMixSize.observedTurns() + " turns)";
            } else if (name.contains("CatalogueBenchmark")) {
                per = score * signals;
                unit = "signals (" + signals + " signals, " + turns + " turns per mix)";
            } else if (name.contains("SanitizerBenchmark")) {
                per = score * 76;
                unit = "inputs (76 redaction lines per set)";
            } else if (name.contains("InteractivePolicyBenchmark")) {
                per = Double.NaN;
                unit = "× events per set (printed at setup)";
            } else if (name.contains("FrameParsingBenchmark")) {
                per = score;
                unit = "records";
            } else {
                per = score;
                unit = "frames";
            }
            System.out.printf(Locale.ROOT, "| %s | %,.0f ± %,.0f | %s | %s |%n", name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1),
                    score, error, Double.isNaN(per) ? "–" : String.format(Locale.ROOT, "%,.0f", per), unit);
        }
    }
}
