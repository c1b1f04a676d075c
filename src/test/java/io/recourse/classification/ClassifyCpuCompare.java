package io.recourse.classification;

import io.recourse.evidence.Evidence;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * Not a test: signals per CPU-second of {@link Classifier#classify} with catalogue v1 and the
 * default catalogue (v2), on the corpus and observed mixes of {@link CatalogueBenchmark}, in one
 * JVM, rounds interleaved, measured with the thread's CPU clock so a loaded machine skews both
 * alike. {@code java -cp ... io.recourse.classification.ClassifyCpuCompare [rounds]}.
 */
public final class ClassifyCpuCompare {

    private ClassifyCpuCompare() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Classifier[] classifiers = {new Classifier(Catalogue.loadResource(Catalogue.V1_RESOURCE)), Classifier.withDefaultCatalogue()};
        String[] names = {"v1", "v2"};
        List<List<Evidence>> mixes = List.of(CatalogueBenchmark.corpusMix(), CatalogueBenchmark.observedMix());
        String[] mixNames = {"corpus", "observed"};
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sink = 0;
        double[][] best = new double[2][2];
        for (int r = -2; r < rounds; r++) { // two warm-up rounds
            for (int m = 0; m < 2; m++) {
                List<Evidence> turns = mixes.get(m);
                long signals = turns.stream().mapToLong(e -> e.signals().size()).sum();
                int reps = (int) Math.max(1, 300_000 / signals);
                for (int c = 0; c < 2; c++) {
                    long t0 = mx.getCurrentThreadCpuTime();
                    for (int k = 0; k < reps; k++) {
                        for (Evidence e : turns) {
                            sink += classifiers[c].classify(e).isPresent() ? 1 : 0;
                        }
                    }
                    double perSecond = reps * (double) signals / ((mx.getCurrentThreadCpuTime() - t0) / 1e9);
                    if (r >= 0) {
                        best[m][c] = Math.max(best[m][c], perSecond);
                        System.out.printf("round %d %s %s: %,.0f signals/CPU-s%n", r, mixNames[m], names[c], perSecond);
                    }
                }
            }
        }
        for (int m = 0; m < 2; m++) {
            System.out.printf("best %s: v1 %,.0f, v2 %,.0f signals/CPU-s, v2/v1 %.2f%n", mixNames[m], best[m][0], best[m][1],
                    best[m][1] / best[m][0]);
        }
        System.out.println("sink " + sink);
    }
}
