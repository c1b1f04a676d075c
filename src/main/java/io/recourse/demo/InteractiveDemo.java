package io.recourse.demo;

import io.recourse.config.RecourseConfig;
import io.recourse.demo.InteractiveScenarios.Observed;
import io.recourse.demo.InteractiveScenarios.Scenario;
import io.recourse.interactive.InteractiveConfig;
import io.recourse.interactive.RecoveryState;
import io.recourse.interactive.RecoveryStatus;
import io.recourse.interactive.RetryCommand;
import io.recourse.runtime.PartitionLeaders;
import io.recourse.runtime.ScaledTime;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The interactive part of {@code recourse demo} (DESIGN §6, §8): plays the
 * {@link InteractiveScenarios} against the running topology through a {@link ScriptedDispatcher},
 * restarts the Streams app when the restart scenario is in its countdown, prints each session's
 * timeline (status, attempt, {@code retry_at}, command; offsets in seconds of the scaled clock from
 * the session's first frame) and returns the number of scenarios that differ from their expectation.
 */
public final class InteractiveDemo {

    /** Stops the running Kafka Streams app and starts a new one on the same state dir; returns once RUNNING. */
    public interface Restart {
        void restart() throws Exception;
    }

    private InteractiveDemo() {
    }

    /**
     * Runs every scenario concurrently and prints the timelines.
     *
     * @param policy  the interactive owner's configuration (for the jitter bounds), on the scaled clock
     * @param timeout wall-clock limit for all scenarios to settle
     * @return how many scenarios differ (0 = all as expected)
     */
    public static int run(PrintWriter out, String bootstrap, RecourseConfig config, InteractiveConfig policy, ScaledTime time,
                   Restart restart, Duration timeout) throws Exception {
        List<Scenario> scenarios = InteractiveScenarios.all();
        long deadline = System.nanoTime() + timeout.toNanos();
        String failure = null;
        out.printf("%ninteractive recovery (DESIGN §6): %d scenarios, time scale %sx (offsets below are seconds of the scaled clock)%n",
                scenarios.size(), number(time.scale()));
        out.flush();
        // the dispatcher's idempotent producer must not start on a partition still without a leader
        PartitionLeaders.await(config, bootstrap, Duration.ofSeconds(60));
        ScriptedDispatcher dispatcher = new ScriptedDispatcher(bootstrap, config, time, scenarios).start();
        try {
            scenarios.forEach(dispatcher::begin);
            boolean restarted = false;
            while (!dispatcher.allSettled() && System.nanoTime() < deadline && dispatcher.failure() == null) {
                if (!restarted && dispatcher.restartRequested()) {
                    restarted = true;
                    String session = restartSession(scenarios);
                    Observed o = dispatcher.observed().get(session);
                    Instant stoppedAt = time.now();
                    long t0 = System.nanoTime();
                    restart.restart();
                    Instant restartedAt = time.now();
                    synchronized (dispatcher) {
                        o.stoppedAt = stoppedAt;
                        o.restartedAt = restartedAt;
                    }
                    out.printf("  (stopped the Streams app during %s's countdown and started it again on the same state dir:"
                            + " %d ms of wall time)%n", session, Duration.ofNanos(System.nanoTime() - t0).toMillis());
                    out.flush();
                }
                Thread.sleep(50);
            }
            if (dispatcher.failure() != null) {
                failure = "the dispatcher failed: " + dispatcher.failure();
            } else if (!dispatcher.allSettled()) {
                failure = "not every scenario settled within " + timeout.toSeconds() + " s of wall time";
            }
        } finally {
            dispatcher.close();
        }
        return print(out, scenarios, dispatcher, policy, failure);
    }

    private static String restartSession(List<Scenario> scenarios) {
        return scenarios.stream().filter(s -> s.trigger() == InteractiveScenarios.Trigger.RESTART_WHEN_SCHEDULED)
                .map(Scenario::sessionId).findFirst().orElse("?");
    }

    private static int print(PrintWriter out, List<Scenario> scenarios, ScriptedDispatcher dispatcher, InteractiveConfig policy,
                             String failure) {
        List<String> differing = new ArrayList<>();
        for (Scenario s : scenarios) {
            Observed o = dispatcher.observed().get(s.sessionId());
            List<String> diffs = InteractiveScenarios.differences(s, o, policy);
            out.printf("%n%s  [%s]  %s%n", s.name(), s.sessionId(), diffs.isEmpty() ? "ok" : "DIFFERS");
            out.printf("  %s%n", s.story());
            out.printf("  expected: %s%n", s.expected());
            Instant base = o.startedAt;
            for (RecoveryState st : o.states) {
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %8s  %-16s gen %d  attempt %d/%d",
                        offset(base, st.updatedAt()), st.status().wire(), st.generation(), st.attempt(), st.maxAttempts()));
                if (st.code() != null) {
                    line.append("  ").append(st.code().wire());
                }
                if (st.retryAt() != null) {
                    line.append("  retry_at ").append(offset(base, st.retryAt()));
                    if (st.status() == RecoveryStatus.SCHEDULED) {
                        line.append(" (in ").append(seconds(Duration.between(st.updatedAt(), st.retryAt()))).append(" s)");
                    }
                }
                if (st.reason() != null) {
                    line.append("  reason ").append(st.reason().wire());
                }
                if (st.status() == RecoveryStatus.DISPATCHING) {
                    o.commands.stream().filter(c -> c.attempt() == st.attempt()).findFirst().ifPresent(c -> line
                            .append("  command ").append(c.commandId()).append(" issued ").append(offset(base, c.issuedAt())));
                }
                out.println(line);
            }
            if (o.stoppedAt != null) {
                // restartedAt is read once the new runner's start returned (Streams RUNNING): its
                // tasks may have processed, even fired a due retry, a few scaled seconds before that instant
                out.printf("  streams stopped at %s, running again by %s (when the restart returned)%n", offset(base, o.stoppedAt),
                        offset(base, o.restartedAt));
            }
            o.notes.forEach(n -> out.println("  note: " + n));
            for (RetryCommand c : o.commands) {
                out.printf("  command %s: attempt %d, expected_generation %d, retry_at %s, issued_at %s%n", c.commandId(),
                        c.attempt(), c.expectedGeneration(), offset(base, c.retryAt()), offset(base, c.issuedAt()));
            }
            diffs.forEach(d -> out.println("  DIFFERS: " + d));
            if (!diffs.isEmpty()) {
                differing.add(s.name());
            }
        }
        out.println();
        if (failure != null) {
            out.println(failure);
        }
        if (differing.isEmpty() && failure == null) {
            out.printf("all %d interactive scenarios followed their expected timeline%n", scenarios.size());
        } else {
            out.printf("%d of %d interactive scenarios differ: %s%n", differing.size(), scenarios.size(), String.join(", ", differing));
        }
        out.flush();
        return failure != null && differing.isEmpty() ? 1 : differing.size();
    }

    private static String offset(Instant base, Instant at) {
        if (base == null || at == null) {
            return "?";
        }
        return "+" + seconds(Duration.between(base, at));
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f", d.toMillis() / 1000.0);
    }

    private static String number(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
