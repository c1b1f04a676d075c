package io.recourse.classification;

import io.recourse.evidence.Evidence;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Not a test: a before/after comparison of {@link Classifier#classify} in one JVM. Two builds of
 * the project (each a {@code classes} and a {@code test-classes} folder) are loaded side by side,
 * each in its own class loader; rounds alternate between them on the corpus and observed mixes of
 * {@link CatalogueBenchmark}, and each is timed with the thread's CPU clock, so a loaded machine
 * skews both alike. Also checks that both builds give the same classifications on both mixes.
 * <pre>java -cp target/test-classes:target/classes:$(cat cp.txt) io.recourse.classification.ClassifyCpuAb \
 *     BEFORE/classes:BEFORE/test-classes target/classes:target/test-classes [rounds]</pre>
 * The {@code BEFORE/test-classes} folder must hold this class too (copy {@code ClassifyCpuAb*.class}).
 */
public final class ClassifyCpuAb {

    private ClassifyCpuAb() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        String[] names = {"before", "after"};
        Object[] probes = new Object[2];
        for (int k = 0; k < 2; k++) {
            List<URL> urls = new ArrayList<>();
            for (String dir : args[k].split(":")) {
                urls.add(Path.of(dir).toUri().toURL());
            }
            ClassLoader loader = new ChildFirst(urls.toArray(URL[]::new), ClassifyCpuAb.class.getClassLoader());
            probes[k] = Class.forName(Probe.class.getName(), true, loader).getConstructor().newInstance();
        }
        long[][] signals = new long[2][];
        for (int k = 0; k < 2; k++) {
            Class<?> c = probes[k].getClass();
            signals[k] = (long[]) c.getMethod("signals").invoke(probes[k]);
        }
        String[] mixNames = {"corpus", "observed"};
        for (int m = 0; m < 2; m++) {
            Object a = probes[0].getClass().getMethod("results", int.class).invoke(probes[0], m);
            Object b = probes[1].getClass().getMethod("results", int.class).invoke(probes[1], m);
            System.out.printf("%s mix: %d signals; same classifications before/after: %s%n", mixNames[m], signals[1][m],
                    a.equals(b));
        }
        double[][] best = new double[2][2];
        for (int r = -2; r < rounds; r++) { // two warm-up rounds
            for (int m = 0; m < 2; m++) {
                for (int k = 0; k < 2; k++) {
                    int reps = (int) Math.max(1, 300_000 / signals[k][m]);
                    long ns = (long) probes[k].getClass().getMethod("run", int.class, int.class).invoke(probes[k], m, reps);
                    double perSecond = reps * (double) signals[k][m] / (ns / 1e9);
                    if (r >= 0) {
                        best[m][k] = Math.max(best[m][k], perSecond);
                        System.out.printf("round %d %s %s: %,.0f signals/CPU-s (%.3f us/signal)%n", r, mixNames[m], names[k],
                                perSecond, 1e6 / perSecond);
                    }
                }
            }
        }
        for (int m = 0; m < 2; m++) {
            System.out.printf("best %s: before %,.0f, after %,.0f signals/CPU-s, after/before %.2f%n", mixNames[m], best[m][0],
                    best[m][1], best[m][1] / best[m][0]);
        }
    }

    /** The classifier and mixes of one build (loaded in that build's class loader). */
    public static final class Probe {
        private final Classifier classifier = Classifier.withDefaultCatalogue();
        private final List<List<Evidence>> mixes = List.of(CatalogueBenchmark.corpusMix(), CatalogueBenchmark.observedMix());
        private long sink;

        public long[] signals() {
            return mixes.stream().mapToLong(l -> l.stream().mapToLong(e -> e.signals().size()).sum()).toArray();
        }

        /** Every classification of mix {@code m}, in order, as text. */
        public String results(int m) {
            StringBuilder b = new StringBuilder();
            for (Evidence e : mixes.get(m)) {
                b.append(classifier.classify(e)).append('\n');
            }
            return b.toString();
        }

        /** CPU nanoseconds of classifying mix {@code m} {@code reps} times. */
        public long run(int m, int reps) {
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            List<Evidence> turns = mixes.get(m);
            long t0 = mx.getCurrentThreadCpuTime();
            for (int k = 0; k < reps; k++) {
                for (Evidence e : turns) {
                    sink += classifier.classify(e).isPresent() ? 1 : 0;
                }
            }
            return mx.getCurrentThreadCpuTime() - t0;
        }
    }

    /** Loads the project's classes from its own folders first, everything else from the parent. */
    private static final class ChildFirst extends URLClassLoader {
        ChildFirst(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("io.recourse.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    try {
                        c = findClass(name);
                    } catch (ClassNotFoundException e) {
                        c = super.loadClass(name, false);
                    }
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        public URL getResource(String name) {
            URL u = findResource(name); // the build's own catalogue and corpus first
            return u != null ? u : super.getResource(name);
        }
    }
}
