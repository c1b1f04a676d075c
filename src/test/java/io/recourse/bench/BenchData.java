package io.recourse.bench;

import io.recourse.classification.Classifier;
import io.recourse.classification.OfflineAssembler;
import io.recourse.evidence.SessionEvent;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.ingress.FrameRejectedException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Inputs of the JMH benchmarks, drawn from the bench {@link Workload} (fixed seed): the same mix as {@code recourse bench}. */
final class BenchData {

    static final long SEED = 8;

    private BenchData() {
    }

    /** Every record of a workload of {@code sessions} sessions, malformed ones included. */
    static List<Workload.Record> records(int sessions) {
        List<Workload.Record> out = new ArrayList<>();
        new Workload(Workload.Options.defaults(SEED, sessions)).forEachRemaining(out::add);
        return out;
    }

    /** The frames the parser admits, in arrival order. */
    static List<Frame> frames(List<Workload.Record> records) {
        FrameParser parser = new FrameParser();
        List<Frame> out = new ArrayList<>();
        for (Workload.Record r : records) {
            try {
                out.add(parser.parse(new String(r.key(), StandardCharsets.UTF_8), r.value()));
            } catch (FrameRejectedException e) {
                // malformed on purpose
            }
        }
        return out;
    }

    /** The session events the evidence stage emits for {@code frames} with the default catalogue. */
    static List<SessionEvent> events(List<Frame> frames) {
        OfflineAssembler assembler = new OfflineAssembler(Classifier.withDefaultCatalogue());
        for (Frame f : frames) {
            assembler.accept(f, f.occurredAt());
        }
        return new ArrayList<>(assembler.events());
    }
}
