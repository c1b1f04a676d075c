package io.recourse.routing.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.avro.RouteCommand;
import io.recourse.avro.RoutingRunValue;
import io.recourse.avro.RoutingWorkspaceValue;
import io.recourse.avro.RunState;
import io.recourse.evidence.TurnContext;
import io.recourse.kit.AvroSerde;
import io.recourse.routing.Candidate;
import io.recourse.routing.ClassPolicy;
import io.recourse.routing.JitterSource;
import io.recourse.routing.Policies;
import io.recourse.routing.RetryPolicy;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RoutingDispatchAck;
import io.recourse.routing.RoutingSettings;
import io.recourse.routing.RunRequest;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.Code;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.serialization.BytesDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/**
 * The routing owner restarted on a fresh state directory (DESIGN §7.3 parking, §8 timers) in a
 * TopologyTestDriver: a restart is a new driver whose three stores hold exactly what their
 * changelogs hold (the last value per key, tombstones removed), as Kafka Streams restores them. The
 * scenario of {@code RoutingRestartIT} at its points of restart: a reset wait parked (P1), a run
 * parked behind the same degraded scope (P2) — its wake, the reset wait's wake and the scope's
 * {@code health_expiry} at one instant — and a pending short retry (S1, then S2).
 */
public class RoutingFreshRestoreTest {

    private static final Instant T0 = Instant.parse("2026-11-30T09:00:00Z");
    private static final String WS = "ws-restore";
    private static final String APP = "recourse-routing-test-";
    private static final RoutingTopology.Options OPTIONS =
            new RoutingTopology.Options(RoutingSettings.DEFAULTS, JitterSource.hashing(), UnaryOperator.identity());
    private static final RouteConfig RETRYING = new RouteConfig("dyn-retry", 1, true, List.of(
            new Candidate("codex-gpt5", "openai", "gpt-5",
                    new Policies(ClassPolicy.DEFAULT_TRANSIENT.withRetry(RetryPolicy.of(2, 4)), ClassPolicy.DEFAULT_HARD)),
            Candidate.of("claude-sonnet", "anthropic", "claude-sonnet-4")));
    private static final RouteConfig SINGLE = new RouteConfig("dyn-single", 1, false, List.of(
            Candidate.of("gemini-pro", "google", "gemini-2.5-pro")));

    /** The compacted changelog of each store so far, across every node. */
    private final Map<Bytes, String> timers = new LinkedHashMap<>();
    private final Map<String, RoutingRunValue> runValues = new LinkedHashMap<>();
    private final Map<String, RoutingWorkspaceValue> workspaceValues = new LinkedHashMap<>();
    private final List<RouteCommand> commands = new ArrayList<>();
    private final List<RunState> states = new ArrayList<>();

    @Test
    public void parkedRunsWakeOnceAndPendingRetriesFireOnceAfterRestoresFromTheChangelogs() {
        Instant reset = T0.plusSeconds(50);
        RoutingDriver node = parkTwoRunsUntil(reset);
        node.request(new RunRequest("q-S1", "S1", WS, RETRYING.dynamicProfileId(), "task-S1", node.now()));
        fail(node, command(node, "S1#1"), Code.PROVIDER_OVERLOADED, null);
        drain(node);
        assertThat(status("P1")).isEqualTo("waiting_for_provider_capacity");
        assertThat(status("P2")).isEqualTo("waiting_for_provider_capacity");
        Instant s1Due = latest("S1").getRetryAt();

        node = restart(node, T0.plusSeconds(2));
        complete(node, firesAt(node, s1Due, "S1#2"));
        node.request(new RunRequest("q-S2", "S2", WS, RETRYING.dynamicProfileId(), "task-S2", node.now()));
        fail(node, command(node, "S2#1"), Code.PROVIDER_OVERLOADED, null);
        drain(node);
        Instant s2Due = latest("S2").getRetryAt();

        node = restart(node, node.now().plusSeconds(1));
        firesAt(node, s2Due, "S2#2");
        node.advanceTo(reset.minusMillis(1));
        drain(node);
        assertThat(commands).extracting(RouteCommand::getCommandId).doesNotContain("P1#2", "P2#1");
        node.advanceTo(reset);
        drain(node);

        assertThat(commands).filteredOn(c -> c.getCommandId().equals("P1#2") || c.getCommandId().equals("P2#1"))
                .as("each parked run wakes at the reset").extracting(RouteCommand::getIssuedAt).containsExactly(reset, reset);
        node = restart(node, reset.plusSeconds(1));
        node.advanceTo(reset.plusSeconds(40));
        drain(node);
        node.close();
        assertThat(commands).extracting(RouteCommand::getCommandId).doesNotHaveDuplicates();
        assertThat(commands).filteredOn(c -> c.getRunId().startsWith("P") && !c.getAction().equals("decline"))
                .extracting(RouteCommand::getCommandId).as("each parked run woke exactly once")
                .containsExactlyInAnyOrder("P1#1", "P1#2", "P2#1");
        assertThat(commands).filteredOn(c -> c.getAction().equals("decline")).as("only never-acked commands are declined")
                .allSatisfy(c -> assertThat(c.getReason()).isEqualTo("dispatch_unconfirmed"));
    }

    @Test
    public void aNodeRestoredAfterTheResetWakesEachParkedRunOnceAtItsFirstPunctuation() {
        Instant reset = T0.plusSeconds(50);
        RoutingDriver node = parkTwoRunsUntil(reset);
        drain(node);

        node = restart(node, reset.plusSeconds(5)); // down across the reset: everything is due at once
        node.advanceTo(reset.plusSeconds(5).plusMillis(1));
        drain(node);
        node.close();

        assertThat(commands).filteredOn(c -> c.getRunId().startsWith("P")).extracting(RouteCommand::getCommandId)
                .containsExactlyInAnyOrder("P1#1", "P1#2", "P2#1");
    }

    // ------------------------------------------------------------------ helpers

    private RoutingDriver start(Instant at) {
        RoutingDriver d = new RoutingDriver(at, OPTIONS);
        d.routeConfig(RETRYING);
        d.routeConfig(SINGLE);
        return d;
    }

    /**
     * A node at {@link #T0} where run P1's first turn failed {@code quota_limited} until {@code reset}
     * and run P2 was requested behind the same scope: both park until the reset.
     */
    private RoutingDriver parkTwoRunsUntil(Instant reset) {
        RoutingDriver node = start(T0);
        node.request(new RunRequest("q-P1", "P1", WS, SINGLE.dynamicProfileId(), "task-P1", node.now()));
        fail(node, command(node, "P1#1"), Code.QUOTA_LIMITED, reset);
        node.request(new RunRequest("q-P2", "P2", WS, SINGLE.dynamicProfileId(), "task-P2", node.now()));
        return node;
    }

    /** Advances {@code node} to {@code due} and returns command {@code id}, asserting it was issued exactly then. */
    private RouteCommand firesAt(RoutingDriver node, Instant due, String id) {
        node.advanceTo(due);
        RouteCommand c = command(node, id);
        assertThat(c.getIssuedAt()).as(id + " issued at its due instant").isEqualTo(due);
        return c;
    }

    /** Stops {@code old} and starts a node at {@code at} on a fresh state dir restored from the changelogs. */
    private RoutingDriver restart(RoutingDriver old, Instant at) {
        drain(old);
        old.close();
        RoutingDriver d = start(at);
        KeyValueStore<String, RoutingRunValue> r = d.driver.getKeyValueStore(RoutingTopology.RUNS_STORE);
        runValues.forEach(r::put);
        KeyValueStore<String, RoutingWorkspaceValue> w = d.driver.getKeyValueStore(RoutingTopology.WORKSPACES_STORE);
        workspaceValues.forEach(w::put);
        KeyValueStore<Bytes, String> t = d.driver.getKeyValueStore(RoutingTopology.TIMERS_STORE);
        timers.forEach(t::put);
        drainChangelogs(d); // the restored values written back are not new changes
        return d;
    }

    /** Reads every output and changelog record of {@code d} so far into the accumulated views. */
    private void drain(RoutingDriver d) {
        commands.addAll(d.commands.readValuesToList());
        states.addAll(d.runStates.readValuesToList());
        drainChangelogs(d);
    }

    private void drainChangelogs(RoutingDriver d) {
        for (KeyValue<String, RoutingRunValue> kv : changelog(d, RoutingTopology.RUNS_STORE, RoutingRunValue.class)) {
            compact(runValues, kv.key, kv.value);
        }
        for (KeyValue<String, RoutingWorkspaceValue> kv
                : changelog(d, RoutingTopology.WORKSPACES_STORE, RoutingWorkspaceValue.class)) {
            compact(workspaceValues, kv.key, kv.value);
        }
        TestOutputTopic<Bytes, String> t = d.driver.createOutputTopic(APP + RoutingTopology.TIMERS_STORE + "-changelog",
                new BytesDeserializer(), new StringDeserializer());
        for (KeyValue<Bytes, String> kv : t.readKeyValuesToList()) {
            compact(timers, kv.key, kv.value);
        }
    }

    private static <V extends org.apache.avro.specific.SpecificRecord> List<KeyValue<String, V>> changelog(RoutingDriver d,
            String store, Class<V> type) {
        return d.driver.createOutputTopic(APP + store + "-changelog", new StringDeserializer(), AvroSerde.of(type))
                .readKeyValuesToList();
    }

    private static <K, V> void compact(Map<K, V> log, K key, V value) {
        if (value == null) {
            log.remove(key);
        } else {
            log.put(key, value);
        }
    }

    private RouteCommand command(RoutingDriver d, String id) {
        drain(d);
        return commands.stream().filter(c -> c.getCommandId().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError(id + " not issued; commands: "
                        + commands.stream().map(RouteCommand::getCommandId).toList()));
    }

    private void fail(RoutingDriver d, RouteCommand c, Code code, Instant resetAt) {
        TurnContext t = RoutingEvents.turn(c, 1);
        d.ack(new RoutingDispatchAck(c.getCommandId(), AckStatus.DISPATCHED, null, null, c.getRunId(), WS, t.sessionId(), 1,
                d.now()));
        d.event(RoutingEvents.started(t, d.now()));
        d.event(RoutingEvents.failed(t, code, resetAt, d.now()));
    }

    private void complete(RoutingDriver d, RouteCommand c) {
        TurnContext t = RoutingEvents.turn(c, 2);
        d.ack(new RoutingDispatchAck(c.getCommandId(), AckStatus.DISPATCHED, null, null, c.getRunId(), WS, t.sessionId(), 2,
                d.now()));
        d.event(RoutingEvents.started(t, d.now()));
        d.event(RoutingEvents.completed(t, d.now()));
    }

    private RunState latest(String run) {
        RunState last = null;
        for (RunState s : states) {
            if (s.getRunId().equals(run)) {
                last = s;
            }
        }
        return last;
    }

    private String status(String run) {
        return latest(run).getStatus();
    }
}
