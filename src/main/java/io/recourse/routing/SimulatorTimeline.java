package io.recourse.routing;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The printable timeline of a {@link RoutingSimulator}: one line per input, and one indented line
 * per note, attempt, health change, park, RunState and command of its decision; instants as
 * offsets from the simulation's start.
 */
final class SimulatorTimeline {

    private final Instant start;
    private final List<String> lines = new ArrayList<>();

    SimulatorTimeline(Instant start) {
        this.start = start;
    }

    /** Records the input {@code label} at {@code now} and what its decision {@code d} wrote. */
    void record(Instant now, String label, RoutingDecision d) {
        String at = "+" + offset(now) + " ";
        lines.add(at + label);
        String pad = " ".repeat(at.length() + 2);
        d.notes().forEach(n -> lines.add(pad + "note " + n));
        for (RouteAttempt a : d.attempts()) {
            lines.add(pad + "attempt " + a.runId() + " #" + a.sequence() + " " + a.outcome().wire() + " "
                    + (a.candidate() == null ? "-" : a.candidate().executionProfileId())
                    + (a.code() == null ? "" : " " + a.code().wire()));
        }
        for (ProviderHealth h : d.health()) {
            lines.add(pad + "health " + h.key().healthKey() + " " + h.state().wire()
                    + (h.retryAt() == null ? "" : " retry_at=+" + offset(h.retryAt())));
        }
        for (ParkedRunChange p : d.parked()) {
            if (p.release()) {
                lines.add(pad + "unpark " + p.runId());
            } else {
                lines.add(pad + "park " + p.runId() + " " + p.parked().status().wire()
                        + (p.parked().wakeAt() == null ? "" : " wake_at=+" + offset(p.parked().wakeAt())));
            }
        }
        for (RunState s : d.runStates()) {
            lines.add(pad + "state " + s.runId() + " " + s.status().wire() + " attempt=" + s.attempt()
                    + (s.candidate() == null ? "" : " on=" + s.candidate().executionProfileId())
                    + (s.retryAt() == null ? "" : " retry_at=+" + offset(s.retryAt()) + " (" + s.retryOrdinal() + "/" + s.maxRetries() + ")")
                    + (s.wakeAt() == null ? "" : " wake_at=+" + offset(s.wakeAt()))
                    + (s.reason() == null ? "" : " reason=" + s.reason()));
        }
        for (RouteCommand c : d.commands()) {
            lines.add(pad + "command " + c.commandId() + " " + c.action().wire()
                    + (c.candidate() == null ? "" : " on=" + c.candidate().executionProfileId())
                    + (c.reason() == null ? "" : " reason=" + c.reason()));
        }
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    void print(PrintStream out, Map<String, ProviderHealth> healthTable, Map<String, ParkedRun> parkedRuns) {
        lines.forEach(out::println);
        out.println("-- provider health");
        healthTable.forEach((k, h) -> out.println(k + " " + h.state().wire() + " step=" + h.backoffStep()
                + (h.retryAt() == null ? "" : " retry_at=+" + offset(h.retryAt()))));
        out.println("-- parked runs");
        parkedRuns.forEach((k, p) -> out.println(k + " " + p.status().wire()
                + (p.wakeAt() == null ? "" : " wake_at=+" + offset(p.wakeAt())) + " " + p.reasons()));
    }

    private String offset(Instant i) {
        Duration d = Duration.between(start, i);
        boolean neg = d.isNegative();
        d = d.abs();
        return String.format("%s%02d:%02d:%02d.%03d", neg ? "-" : "", d.toHours(), d.toMinutesPart(), d.toSecondsPart(),
                d.toMillisPart());
    }
}
