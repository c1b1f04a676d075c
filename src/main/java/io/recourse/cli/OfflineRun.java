package io.recourse.cli;

import io.recourse.classification.OfflineAssembler;
import io.recourse.classification.TurnClassifier;
import io.recourse.evidence.ClosedTurn;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.TurnState;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One offline pass of the shared input of {@code classify} and {@code catalogue explain}: frames
 * from {@link FrameLines} through the {@link OfflineAssembler} (DESIGN §4), each frame's
 * {@code occurred_at} standing in for the broker append time. A file has no arrival order worth
 * keeping, so the whole input is read first and each turn is replayed in {@code seq} order
 * (sessions in order of first appearance, then generation, then {@code seq}; a stable sort, so a
 * duplicate {@code seq} keeps its first copy): the answer is the same whatever order the lines are
 * in. The streaming job, by contrast, counts a frame that arrives after its turn closed as
 * {@code late_after_close} (DESIGN §4). Every rejected line goes to
 * {@code err} as it is met; at the end a summary line and the turns still open (they get no
 * outcome: inactivity is never evidence).
 */
public final class OfflineRun {

    /** Called for each turn as it closes, in closing order. */
    interface TurnSink {
        void closed(TurnOutcome outcome, ClosedTurn turn) throws IOException;
    }

    /** The most open turn keys listed by name; the count is always complete. */
    static final int MAX_LISTED_OPEN = 20;

    private final OfflineAssembler assembler;
    private final FrameLines lines;
    private final PrintWriter err;
    private int closed;

    OfflineRun(TurnClassifier classifier, boolean corpus, PrintWriter err) {
        this.assembler = new OfflineAssembler(classifier);
        this.lines = new FrameLines(new FrameParser(), corpus);
        this.err = err;
    }

    /**
     * Reads {@code in} to its end, calling {@code sink} for every turn that closes.
     *
     * @throws IOException when the input cannot be read (or the sink fails to write)
     */
    void run(BufferedReader in, String name, TurnSink sink) throws IOException {
        List<Frame> frames = new ArrayList<>();
        FrameLines.Counts counts = lines.read(in, new FrameLines.Sink() {
            @Override
            public void frame(Frame frame) {
                frames.add(frame);
            }

            @Override
            public void rejected(FrameLines.Rejection rejection) {
                err.println(rejection);
            }
        });
        for (Frame frame : replayOrder(frames)) {
            for (SessionEvent e : assembler.accept(frame, frame.occurredAt())) {
                if (e instanceof TurnOutcome o) {
                    closed++;
                    sink.closed(o, assembler.closedTurns().get(frame.turnKey()));
                }
            }
        }
        List<String> open = new ArrayList<>();
        for (Map.Entry<String, TurnState> e : assembler.turns().entrySet()) {
            if (e.getValue().open()) {
                open.add(e.getKey());
            }
        }
        StringBuilder summary = new StringBuilder()
                .append(name).append(": ").append(plural(counts.lines(), "line")).append(", ")
                .append(plural(counts.frames(), "frame")).append(" accepted, ").append(counts.rejected()).append(" rejected; ")
                .append(plural(closed, "turn")).append(" closed, ").append(open.size()).append(" open");
        for (String counter : List.of("duplicate_frames", "late_after_close", "dropped_signals")) {
            if (assembler.counter(counter) > 0) {
                summary.append("; ").append(counter).append('=').append(assembler.counter(counter));
            }
        }
        err.println(summary);
        if (!open.isEmpty()) {
            err.println("open at end of input, no outcome: " + plural(open.size(), "turn") + " ("
                    + String.join(", ", open.subList(0, Math.min(open.size(), MAX_LISTED_OPEN)))
                    + (open.size() > MAX_LISTED_OPEN ? ", …" : "") + ")");
        }
        err.flush();
    }

    /**
     * {@code frames} in replay order: sessions in order of first appearance, then generation, then
     * {@code seq} (a stable sort, so a duplicate {@code seq} keeps its first copy). Sorts in place.
     */
    static List<Frame> replayOrder(List<Frame> frames) {
        Map<String, Integer> sessionOrder = new java.util.HashMap<>();
        for (Frame f : frames) {
            sessionOrder.putIfAbsent(f.sessionId(), sessionOrder.size());
        }
        frames.sort(java.util.Comparator.<Frame>comparingInt(f -> sessionOrder.get(f.sessionId()))
                .thenComparingInt(Frame::promptGeneration)
                .thenComparingLong(Frame::seq));
        return frames;
    }

    private static String plural(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
