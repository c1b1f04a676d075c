package io.recourse.bench;

import io.recourse.classification.OfflineAssembler;
import io.recourse.ingress.Frame;
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
 * JMH (not a test): evidence assembly (DESIGN §4: signal extraction, sanitizing, bounds, effect
 * flags, closing and assembling each turn) over the parsed frames of the bench workload, through
 * {@link OfflineAssembler} with a classifier that matches nothing (classification is
 * {@code CatalogueBenchmark}'s). Score: frames per second, one thread; in-memory maps stand in
 * for the stores.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class EvidenceAssemblyBenchmark {

    /** Admitted frames of {@link FrameParsingBenchmark}'s records (checked at setup). */
    static final int FRAMES = 14_460;

    private List<Frame> frames;

    @Setup
    public void setUp() {
        frames = BenchData.frames(BenchData.records(FrameParsingBenchmark.SESSIONS));
        if (frames.size() != FRAMES) {
            throw new IllegalStateException("the workload changed: " + frames.size() + " frames; update FRAMES");
        }
    }

    /** Assembles the whole workload once. */
    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public void assembleWorkloadFrames(Blackhole bh) {
        OfflineAssembler assembler = new OfflineAssembler(evidence -> Optional.empty());
        for (Frame f : frames) {
            bh.consume(assembler.accept(f, f.occurredAt()));
        }
    }
}
