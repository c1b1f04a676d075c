package io.recourse.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.evidence.Sanitizer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
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
 * JMH (not a test): {@link Sanitizer#sanitize} (DESIGN §9) over every {@code input} of the
 * corpus's {@code redaction.jsonl} (secrets, URLs, e-mails, paths; 76 lines). Score: inputs per
 * second, one thread ({@link #BYTES} printed at setup turns it into bytes per second).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class SanitizerBenchmark {

    /** Total UTF-8 bytes of the inputs. */
    public static long BYTES;
    private String[] inputs;

    @Setup
    public void setUp() throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<String> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                SanitizerBenchmark.class.getResourceAsStream("/corpus/redaction.jsonl"), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isBlank()) {
                    JsonNode n = json.readTree(line);
                    out.add(n.path("input").asText());
                }
            }
        }
        inputs = out.toArray(String[]::new);
        BYTES = out.stream().mapToLong(s -> s.getBytes(StandardCharsets.UTF_8).length).sum();
        System.out.printf("redaction corpus: %d inputs, %d bytes%n", inputs.length, BYTES);
    }

    /** Sanitizes each input once; the score is input sets per second (× inputs for inputs/s). */
    @Benchmark
    public void sanitizeRedactionCorpus(Blackhole bh) {
        for (String s : inputs) {
            bh.consume(Sanitizer.sanitize(s));
        }
    }
}
