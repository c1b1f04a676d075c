package io.recourse.bench;

import io.recourse.classification.OfflineAssembler;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.ingress.FrameRejectedException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * JMH (not a test): {@link FrameParser#parse} over the bench workload's records — 200 sessions,
 * 14,608 records of the benchmark mix, 1 % malformed. Score: records per second, one thread.
 * {@link #parseAndAssembleWorkloadRecords} also feeds every admitted frame, freshly parsed, to the
 * evidence stage ({@link OfflineAssembler}, no classifier): what a payload's tree costs when a
 * consumer asks for it, which pre-parsed frames (EvidenceAssemblyBenchmark) hide after their first
 * pass.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class FrameParsingBenchmark {

    static final int SESSIONS = 200;
    /** Records in the batch ({@link OperationsPerInvocation} must be a constant; checked at setup). */
    static final int RECORDS = 14_608;

    private FrameParser parser;
    private String[] keys;
    private byte[][] values;

    @Setup
    public void setUp() {
        parser = new FrameParser();
        List<Workload.Record> records = BenchData.records(SESSIONS);
        if (records.size() != RECORDS) {
            throw new IllegalStateException("the workload changed: " + records.size() + " records; update RECORDS");
        }
        keys = new String[records.size()];
        values = new byte[records.size()][];
        for (int i = 0; i < records.size(); i++) {
            keys[i] = new String(records.get(i).key(), StandardCharsets.UTF_8);
            values[i] = records.get(i).value();
        }
    }

    /** Parses every record once and assembles the admitted frames as the evidence stage does. */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void parseAndAssembleWorkloadRecords(Blackhole bh) {
        OfflineAssembler assembler = new OfflineAssembler(evidence -> Optional.empty());
        for (int i = 0; i < keys.length; i++) {
            try {
                Frame f = parser.parse(keys[i], values[i]);
                bh.consume(assembler.accept(f, f.occurredAt()));
            } catch (FrameRejectedException e) {
                bh.consume(e);
            }
        }
    }

    /** Parses (or rejects) every record once. */
    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void parseWorkloadRecords(Blackhole bh) {
        for (int i = 0; i < keys.length; i++) {
            try {
                bh.consume(parser.parse(keys[i], values[i]));
            } catch (FrameRejectedException e) {
                bh.consume(e);
            }
        }
    }
}
