package io.recourse.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.recourse.avro.ProviderHealth;
import io.recourse.avro.RouteCommand;
import io.recourse.avro.RunState;
import io.recourse.config.RecourseConfig;
import io.recourse.http.RecourseHttp;
import io.recourse.routing.JitterSource;
import io.recourse.routing.RoutingSimulator;
import io.recourse.runtime.EmbeddedKafkaBroker;
import io.recourse.runtime.PartitionLeaders;
import io.recourse.runtime.RecourseRunner;
import io.recourse.runtime.ScaledTime;
import io.recourse.topology.RecourseTopology;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code recourse demo-routing}: the routing scenario on an embedded broker, through the
 * whole pipeline (DESIGN §3–§8): ingress → evidence → classification → workspace-keyed
 * SessionEvents → routing owner, running the real {@link RecourseTopology} with
 * {@link JitterSource#none()} (exact short-retry delays) and the scaled record clock.
 *
 * <p>A built-in scripted dispatcher reads {@code recourse.office.route-commands}
 * ({@code read_committed}), acks each dispatchable command on {@code recourse.office.dispatch-acks}
 * and publishes the dispatched turn as real frame envelopes ({@code profile_kind=dynamic}) built from
 * the bundled samples' payloads: candidate 1 fails with model capacity (burst 1 clears on the owner's
 * second short retry; burst 2, 30 s after every run completed, does not clear), candidate 2 is
 * quota-limited with a reset 60 s after the frame, candidate 3 is auth-expired; after the reset a
 * turn on candidate 2 succeeds. Each burst's first failing turn is the first run's: the other runs'
 * are published once the owner's {@code short_retry} RunState for it is read, so the run that probes
 * the candidate is the simulator's whatever order the frames' partitions are processed in. The check is structural per run and per health key against
 * {@link RoutingDemoScenario} played on the {@link RoutingSimulator}: RouteCommand actions and
 * candidates, RunState statuses, ProviderHealth states, the configured short retries, and one park
 * per run with {@code wake_at} ≈ the quota reset, released exactly once. Exit 0 when it holds, else
 * 1 with the first difference printed.
 */
@Command(name = "demo-routing", mixinStandardHelpOptions = true,
        description = "Run the routing scenario (3 candidates, 20 runs) on an embedded broker and print its timeline.")
public final class RoutingDemo implements Callable<Integer> {

    /** Wall-clock latency allowed per check (punctuation, commits, the dispatcher's poll), times the time scale. */
    static final Duration WALL_TOLERANCE = Duration.ofMillis(500);

    /** Builds the demo's JSON inputs. */
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * The RunRequest the demo's scheduler writes for run {@code runId} on
     * {@code recourse.office.run-requests} (DESIGN §7.1; {@code schemas/office-run-request.schema.json}),
     * keyed by {@code workspaceId}, on the demo's dynamic profile.
     *
     * @param occurredAt written as RFC 3339 UTC text
     */
    public static ObjectNode runRequestJson(String runId, String workspaceId, Instant occurredAt) {
        return runRequestJson(runId, workspaceId, RoutingDemoScenario.PROFILE, occurredAt);
    }

    /** Likewise on the dynamic profile {@code dynamicProfileId} (the benchmark's Office runs). */
    public static ObjectNode runRequestJson(String runId, String workspaceId, String dynamicProfileId, Instant occurredAt) {
        return JSON.createObjectNode().put("type", "run_request")
                .put("request_id", "req-" + runId).put("run_id", runId).put("workspace_id", workspaceId)
                .put("dynamic_profile_id", dynamicProfileId).put("task_id", "task-" + runId)
                .put("occurred_at", occurredAt.toString());
    }

    /**
     * The {@code dispatched} OfficeDispatchAck the demo's dispatcher writes on
     * {@code recourse.office.dispatch-acks} (DESIGN §7.3; {@code schemas/office-dispatch-ack.schema.json}),
     * keyed by {@code workspaceId}.
     *
     * @param generation the generation the dispatch created
     * @param occurredAt written as RFC 3339 UTC text
     */
    public static ObjectNode dispatchedAckJson(String commandId, String runId, String workspaceId, String sessionId,
                                               int generation, Instant occurredAt) {
        return JSON.createObjectNode().put("command_id", commandId).put("status", "dispatched")
                .put("run_id", runId).put("workspace_id", workspaceId).put("session_id", sessionId)
                .put("prompt_generation", generation).put("occurred_at", occurredAt.toString());
    }

    // 5×: the 30 s dispatch timeout is 6 s of wall time, enough for 20 runs' acks through the
    // exactly-once pipeline on a loaded machine (at 10× the 20-run demo saw dispatch_unconfirmed)
    @Option(names = "--time-scale", paramLabel = "N", defaultValue = "5",
            description = "Run the injected clock N times faster (default ${DEFAULT-VALUE}).")
    double timeScale;

    @Option(names = "--runs", paramLabel = "COUNT", defaultValue = "20", description = "Concurrent runs (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "180",
            description = "Wall-clock seconds to wait for the whole scenario (default ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        return play(spec.commandLine().getOut(), timeScale, runs, timeoutSeconds, -1);
    }

    /**
     * Plays the routing scenario on its own embedded broker and prints its report (the body of
     * {@code demo-routing}; {@code demo} calls it for its Office part).
     *
     * @param httpPort the port of the instance's HTTP server ({@link RecourseHttp}: status page,
     *                 queries), {@code 0} a free one, {@code -1} none
     * @return 0 when the timeline is as expected, else 1
     */
    public static int play(PrintWriter out, double timeScale, int runs, int timeoutSeconds, int httpPort) throws Exception {
        ScaledTime time = new ScaledTime(Instant.ofEpochMilli(System.currentTimeMillis()), timeScale);
        Path stateDir = Files.createTempDirectory("recourse-demo-routing");
        RoutingObserved observed;
        Instant origin;
        Instant reset;
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(stateDir.resolve("broker"), 0, 0,
                EmbeddedKafkaBroker.scaledClockOverrides()).start()) {
            RecourseConfig config = RecourseConfig.of(Map.ofEntries(
                    Map.entry(RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers()),
                    Map.entry(RecourseConfig.TOPICS_CREATE, "true"),
                    Map.entry(RecourseConfig.STATE_DIR, stateDir.resolve("streams").toString()),
                    Map.entry(RecourseConfig.APPLICATION_ID, "recourse-demo-routing"),
                    Map.entry(RecourseConfig.TOPIC_PARTITIONS, "2"),
                    Map.entry(RecourseConfig.OWNER_PARTITIONS, "2"),
                    Map.entry(RecourseConfig.HTTP_PORT, String.valueOf(httpPort)),
                    Map.entry(RecourseConfig.LOG_LEVEL, "WARN"),
                    Map.entry(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "10"),
                    // every hop of the pipeline waits for a transaction commit (exactly-once): commit often
                    Map.entry(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "20"),
                    // on a loaded machine an ack can take seconds of wall time through the pipeline:
                    // give it 90 s on the scaled clock (no dispatch times out in the scenario)
                    Map.entry(RecourseConfig.DISPATCH_TIMEOUT_MS, "90000")));
            try (RecourseRunner runner = new RecourseRunner(config,
                    (c, meters) -> RecourseTopology.build(c, RecourseTopology.Options.with(meters)
                            .withRecordClock(time::scaled).withRoutingJitter(JitterSource.none())), time)
                    .withEndpoint(RecourseHttp::start)) {
                runner.start();
                // the dispatcher's idempotent producer must not start on a partition still without a leader
                PartitionLeaders.await(config, runner.bootstrapServers(), Duration.ofSeconds(60));
                try (RoutingDispatcher d = new RoutingDispatcher(runner, config, time, runs)) {
                    d.publishRouteConfig(RoutingDemoScenario.config());
                    origin = time.now();
                    out.printf("routing demo: %d runs, 3 candidates, time scale %.0fx on %s%n", runs, timeScale,
                            broker.bootstrapServers());
                    if (httpPort >= 0) {
                        out.printf("status page: http://127.0.0.1:%d/ (while the scenario plays)%n", httpPort);
                    }
                    out.flush();
                    try {
                        d.run(Instant.now().plusSeconds(timeoutSeconds));
                    } catch (IllegalStateException e) {
                        out.println("-- " + e.getMessage());
                    }
                    observed = d.observed;
                    reset = d.quotaReset;
                }
            }
        } finally {
            deleteQuietly(stateDir);
        }
        Duration tolerance = Duration.ofMillis(Math.max(3000, (long) (WALL_TOLERANCE.toMillis() * timeScale)));
        return RoutingReport.report(out, origin, reset, observed, runs, tolerance);
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temp dir
        }
    }
}
