package io.recourse.classification;

import io.recourse.classification.SignatureFixtures.Line;
import io.recourse.evidence.Evidence;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * JMH benchmark (not a test): classifier throughput in signals per second over
 * the corpus mix — every {@code signatures.jsonl} line and catalogue fixture as a turn. The score
 * is turns classified per second; divide by {@link #signalsPerTurn} (printed at setup) or read
 * the {@code signals/s} figure it prints. Run after {@code mvn -o test-compile}:
 * <pre>java -cp target/test-classes:target/classes:$(cat cp.txt) org.openjdk.jmh.Main CatalogueBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class CatalogueBenchmark {

    private Classifier classifier;
    private List<Evidence> turns;
    /** Average number of signals per turn of the mix. */
    public double signalsPerTurn;

    /**
     * The corpus mix: every signature line and catalogue fixture as one turn — failed when the
     * line expects a code, completed otherwise.
     */
    public static List<Evidence> corpusMix() {
        List<Line> lines = new ArrayList<>(SignatureFixtures.read("corpus/signatures.jsonl"));
        lines.addAll(SignatureFixtures.read(CatalogueFixturesTest.FIXTURES));
        List<Evidence> mix = new ArrayList<>();
        for (Line l : lines) {
            mix.add(l.expected() == null ? SignatureFixtures.completedTurn(l) : SignatureFixtures.failedTurn(l));
        }
        return mix;
    }

    @Setup
    public void setUp() {
        classifier = Classifier.withDefaultCatalogue();
        turns = corpusMix();
        long signals = turns.stream().mapToLong(e -> e.signals().size()).sum();
        signalsPerTurn = (double) signals / turns.size();
        System.out.printf("corpus mix: %d turns, %d signals, %.2f signals/turn%n", turns.size(), signals, signalsPerTurn);
    }

    /** Classifies the whole mix once; the score is mixes per second. */
    @Benchmark
    public void classifyCorpusMix(Blackhole bh) {
        for (Evidence e : turns) {
            bh.consume(classifier.classify(e));
        }
    }
}
