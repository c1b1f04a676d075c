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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * JMH benchmark (not a test): classifier throughput in signals per second over
 * a mix of turns ({@link #mix}): {@code corpus} — every {@code signatures.jsonl} line and catalogue
 * fixture as a turn — or {@code observed} — every case of {@code corpus/observed/} (round 1's
 * {@code cases-*.jsonl} and the held-out {@code holdout-*.jsonl}) rendered into frames
 * ({@code ObservedCaseRenderer}) and assembled into its generation-1 turn. The
 * score is mixes classified per second; multiply by the mix's signals ({@link CatalogueMixSize},
 * printed at setup) for signals per second. Run after {@code mvn -o test-compile}:
 * <pre>java -cp target/test-classes:target/classes:$(cat cp.txt) org.openjdk.jmh.Main CatalogueBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class CatalogueBenchmark {

    /** Which mix: {@code corpus} (signatures + fixtures) or {@code observed} (the observed corpus's cases). */
    @Param({"corpus", "observed"})
    public String mix;

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

    /**
     * The observed mix: every case of {@code corpus/observed/cases-*.jsonl} and {@code holdout-*.jsonl}
     * rendered into its frames
     * and assembled (real parser and evidence assembler) into the evidence of its generation-1 turn.
     */
    static List<Evidence> observedMix() {
        try {
            java.net.URL url = CatalogueBenchmark.class.getClassLoader().getResource("corpus/observed");
            if (url == null) {
                throw new IllegalStateException("missing test resource folder corpus/observed");
            }
            List<java.nio.file.Path> files;
            try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.list(java.nio.file.Path.of(url.toURI()))) {
                files = s.filter(f -> f.getFileName().toString().matches("(cases|holdout)-.*\\.jsonl")).sorted().toList();
            }
            com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
            io.recourse.ingress.FrameParser parser = new io.recourse.ingress.FrameParser();
            Classifier shipped = Classifier.withDefaultCatalogue();
            List<Evidence> mix = new ArrayList<>();
            for (java.nio.file.Path f : files) {
                for (String line : java.nio.file.Files.readAllLines(f, java.nio.charset.StandardCharsets.UTF_8)) {
                    if (line.isBlank()) {
                        continue;
                    }
                    io.recourse.cli.ObservedCase c = io.recourse.cli.ObservedCase.parse(json.readTree(line));
                    io.recourse.classification.OfflineAssembler assembler = new io.recourse.classification.OfflineAssembler(shipped);
                    for (com.fasterxml.jackson.databind.JsonNode frame : io.recourse.cli.ObservedCaseRenderer.frames(c)) {
                        String key = frame.get("session_id").asText() + "/" + frame.get("prompt_generation").asInt();
                        io.recourse.ingress.Frame parsed = parser.parse(key, json.writeValueAsBytes(frame));
                        assembler.accept(parsed, parsed.occurredAt());
                    }
                    io.recourse.evidence.ClosedTurn turn = assembler.closedTurns()
                            .get(io.recourse.cli.ObservedCaseRenderer.sessionId(c) + "/1");
                    if (turn != null) {
                        mix.add(turn.evidence());
                    }
                }
            }
            return mix;
        } catch (java.io.IOException | java.net.URISyntaxException | io.recourse.ingress.FrameRejectedException e) {
            throw new IllegalStateException("cannot build the observed mix", e);
        }
    }

    @Setup
    public void setUp() {
        classifier = Classifier.withDefaultCatalogue();
        turns = "observed".equals(mix) ? observedMix() : corpusMix();
        long signals = turns.stream().mapToLong(e -> e.signals().size()).sum();
        signalsPerTurn = (double) signals / turns.size();
        System.out.printf(mix + " mix: %d turns, %d signals, %.2f signals/turn%n", turns.size(), signals, signalsPerTurn);
    }

    /** Classifies the whole mix once; the score is mixes per second. */
    @Benchmark
    public void classifyCorpusMix(Blackhole bh) {
        for (Evidence e : turns) {
            bh.consume(classifier.classify(e));
        }
    }
}
