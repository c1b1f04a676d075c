package io.recourse.bench;

import io.recourse.evidence.SessionEvent;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.RecoveryDecision;
import io.recourse.interactive.SessionState;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * JMH (not a test): the interactive owner's pure policy ({@link InteractiveRecoveryPolicy#apply},
 * DESIGN §6) over the session events the evidence stage emits for the bench workload (200
 * sessions; TurnStarted, TurnProgressed, TurnOutcome with the catalogue's classifications), with
 * per-session state in a map as the store would hold it. Score: event sets per second, one
 * thread; {@link #EVENTS} (printed at setup) turns it into events per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
public class InteractivePolicyBenchmark {

    /** Events per set. */
    public static int EVENTS;
    private InteractiveRecoveryPolicy policy;
    private List<SessionEvent> events;
    private Instant now;

    @Setup
    public void setUp() {
        policy = InteractiveRecoveryPolicy.defaults();
        events = BenchData.events(BenchData.frames(BenchData.records(FrameParsingBenchmark.SESSIONS)));
        EVENTS = events.size();
        now = Instant.parse("2026-06-01T12:10:00Z");
        System.out.printf("policy input: %d session events%n", EVENTS);
    }

    /** Applies every event once, from empty state. */
    @Benchmark
    public void applyWorkloadEvents(Blackhole bh) {
        Map<String, SessionState> store = new HashMap<>();
        for (SessionEvent e : events) {
            RecoveryDecision d = policy.apply(store.get(e.sessionId()), e, now);
            if (d.state() != null) {
                store.put(e.sessionId(), d.state());
            }
            bh.consume(d);
        }
    }
}
