package io.recourse.classification;

import io.recourse.evidence.Evidence;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Not a test: CPU time per signal of {@link Classifier#classify} over the corpus mix of
 * {@link CatalogueBenchmark} (the observed mix with {@code -Dmix=observed}), measured with the thread's CPU clock so a loaded machine does not
 * skew it. {@code java -cp ... io.recourse.classification.ClassifyCpuDriver [rounds] [profile]}.
 */
public final class ClassifyCpuDriver {

    private ClassifyCpuDriver() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        boolean profile = args.length > 1 && args[1].equals("profile");
        Classifier classifier = Classifier.withDefaultCatalogue();
        List<Evidence> turns = "observed".equals(System.getProperty("mix")) ? CatalogueBenchmark.observedMix()
                : CatalogueBenchmark.corpusMix();
        long signals = turns.stream().mapToLong(e -> e.signals().size()).sum();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        int sink = 0;
        for (int w = 0; w < Integer.getInteger("warmup", 3000); w++) { // warm-up
            for (Evidence e : turns) {
                sink += classifier.classify(e).isPresent() ? 1 : 0;
            }
        }
        Thread me = Thread.currentThread();
        Map<String, Integer> samples = new HashMap<>();
        Thread sampler = null;
        if (profile) {
            sampler = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    StackTraceElement[] st = me.getStackTrace();
                    StringBuilder key = new StringBuilder();
                    int depth = 0;
                    for (StackTraceElement el : st) {
                        if (depth++ == 4) break;
                        key.append(el.getClassName().replace("io.recourse.classification.", "")).append('.')
                                .append(el.getMethodName()).append(':').append(el.getLineNumber()).append(" < ");
                    }
                    samples.merge(key.toString(), 1, Integer::sum);
                    for (int k = 1; k < st.length; k++) {
                        if (st[k].getMethodName().equals("classify") && st[k].getClassName().endsWith("Classifier")) {
                            samples.merge("INCL " + st[k - 1].getClassName().replace("io.recourse.classification.", "")
                                    + "." + st[k - 1].getMethodName() + ":" + st[k - 1].getLineNumber(), 1, Integer::sum);
                            break;
                        }
                    }
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            sampler.setDaemon(true);
            sampler.start();
        }
        double best = Double.MAX_VALUE;
        double sum = 0;
        int mixes = Integer.getInteger("mixes", 2000);
        for (int r = 0; r < rounds; r++) {
            long t0 = mx.getCurrentThreadCpuTime();
            for (int k = 0; k < mixes; k++) {
                for (Evidence e : turns) {
                    sink += classifier.classify(e).isPresent() ? 1 : 0;
                }
            }
            long ns = mx.getCurrentThreadCpuTime() - t0;
            double us = ns / 1000.0 / (mixes * (double) signals);
            best = Math.min(best, us);
            sum += us;
            System.out.printf("round %d: %.3f us/signal (cpu)%n", r, us);
        }
        if (args.length > 1 && args[1].equals("parts")) {
            RuleIndex index = classifier.catalogue().index();
            RuleIndex.CompiledCondition any = index.rules()[0].positive[0];
            for (int r = 0; r < 3; r++) {
                long t0 = mx.getCurrentThreadCpuTime();
                for (int k = 0; k < mixes; k++) {
                    for (Evidence e : turns) {
                        sink += index.turn(e.signals()).possible(any) ? 1 : 0;
                    }
                }
                long ns = mx.getCurrentThreadCpuTime() - t0;
                System.out.printf("scanAll alone: %.3f us/signal (cpu)%n", ns / 1000.0 / (mixes * (double) signals));
            }
            java.lang.reflect.Field lf = RuleIndex.class.getDeclaredField("literals");
            lf.setAccessible(true);
            LiteralSet ls = (LiteralSet) lf.get(index);
            List<String> texts = new ArrayList<>();
            long chars = 0;
            for (Evidence e : turns) {
                for (io.recourse.evidence.Signal sg : e.signals()) {
                    for (String v : sg.fields().values()) {
                        texts.add(v);
                        chars += v.length();
                    }
                }
            }
            LiteralSet.Scratch scratch = new LiteralSet.Scratch();
            for (int r = 0; r < 3; r++) {
                long t0 = mx.getCurrentThreadCpuTime();
                for (int k = 0; k < mixes; k++) {
                    for (String v : texts) {
                        sink += ls.scan(v, new long[ls.words()], scratch).length;
                    }
                }
                long ns = mx.getCurrentThreadCpuTime() - t0;
                System.out.printf("scan of all %d field values (%d chars): %.3f us/signal, %.2f ns/char%n", texts.size(), chars,
                        ns / 1000.0 / (mixes * (double) signals), ns / (mixes * (double) chars));
            }
        }
        System.out.printf("signals/mix %d turns %d; best %.3f us/signal, mean %.3f; sink %d%n", signals, turns.size(),
                best, sum / rounds, sink);
        if (sampler != null) {
            sampler.interrupt();
            int total = samples.entrySet().stream().filter(e -> !e.getKey().startsWith("INCL")).mapToInt(Map.Entry::getValue).sum();
            samples.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(60)
                    .forEach(e -> System.out.printf("%5.1f%% %s%n", 100.0 * e.getValue() / total, e.getKey()));
        }
    }
}
