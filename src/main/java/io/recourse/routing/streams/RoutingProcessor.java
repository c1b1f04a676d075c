package io.recourse.routing.streams;

import io.recourse.avro.RouteConfigValue;
import io.recourse.avro.RoutingRunValue;
import io.recourse.avro.RoutingWorkspaceValue;
import io.recourse.evidence.Outcome;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.kit.TimeIndex;
import io.recourse.routing.ParkedRunChange;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.Router;
import io.recourse.routing.RoutingDecision;
import io.recourse.routing.RoutingTimerKind;
import io.recourse.routing.Run;
import io.recourse.routing.RunState;
import io.recourse.routing.TimerEntry;
import io.recourse.routing.WorkspaceState;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routing owner's processor (DESIGN §7, §8), plumbing around the pure {@link Router}:
 * for every input of a workspace (RunRequest, RunFinished, RunControl, OfficeDispatchAck, a
 * SessionEvent) it loads the workspace's runs ({@value RoutingTopology#RUNS_STORE}, one prefix
 * scan over {@code <percent-encoded workspace>/}) and its health and cooldowns
 * ({@value RoutingTopology#WORKSPACES_STORE}), calls the router with {@code now} = the injected
 * wall clock ({@code currentSystemTimeMs}), stores the changed runs (deleting ended ones), applies
 * the decision's timer changes to the time index ({@value RoutingTopology#TIMERS_STORE}: cancel,
 * then arm) and forwards its records ({@link RoutingRecords}). Under {@code exactly_once_v2} all of
 * it commits in one transaction.
 *
 * <p>A {@code WALL_CLOCK_TIME} punctuator range-scans the time index from its first key up to
 * {@link TimerEntry#upperBound(Instant) upperBound(now)} (never the whole store) and fires each
 * due entry in key order (instant, kind, id), deleting it first; the entry's value names its
 * workspace. A dispatch timeout is measured from max(issued_at, the moment the task reached
 * RUNNING): until {@code dispatchTimeout} has passed since {@link #init}, due
 * {@code dispatch_timeout} entries wait, so an ack still unread after a restart is not overtaken.
 *
 * <p>The route configuration comes from the global store {@value RoutingTopology#ROUTE_CONFIG_STORE}.
 * TurnOutcome record times ({@code recorded_at}) are mapped through {@code recordClock} before the
 * router compares them with the clock (identity in production; the demo's time scale).
 *
 * <p>Metrics ({@link RecourseMeters}, DESIGN §10): policy decisions on failed turns and stale
 * evidence under {@code context=office}; every fired timer's lag ({@code now − due}) under
 * {@code recourse_timer_lag_seconds{owner=routing, kind}}.
 */
public final class RoutingProcessor extends ContextualProcessor<String, Object, String, RoutingOutput> {

    private static final Logger LOG = LoggerFactory.getLogger(RoutingProcessor.class);
    /** Due entries fired per punctuation at most; the rest fire at the next one (bounds a transaction). */
    static final int MAX_FIRED_PER_PUNCTUATION = 10_000;
    /**
     * The routing owner's punctuator: scans again while entries fire (a decision may arm an entry
     * due at once), and skips an entry an earlier one of the scan cancelled.
     */
    static final TimeIndex.Loop TIMER_LOOP = new TimeIndex.Loop(MAX_FIRED_PER_PUNCTUATION, true, true);
    /** The {@code owner} tag of this processor's timer lag. */
    static final String TIMER_OWNER = "routing";
    /** The run reason of a failed turn declined for stale evidence (DESIGN §8). */
    static final String STALE_EVIDENCE = "stale_evidence";

    private final RoutingTopology.Options options;
    private final Duration punctuationInterval;
    private final Map<String, Cached> configCache = new HashMap<>();
    private Router router;
    private KeyValueStore<String, RoutingRunValue> runs;
    private KeyValueStore<String, RoutingWorkspaceValue> workspaces;
    private TimeIndex<String> timers;
    private KeyValueStore<String, Object> routeConfigs;
    private Instant runningSince;

    private record Cached(RouteConfigValue value, RouteConfig config) {
    }

    RoutingProcessor(RoutingTopology.Options options, Duration punctuationInterval) {
        this.options = options;
        this.punctuationInterval = punctuationInterval;
    }

    @Override
    public void init(ProcessorContext<String, RoutingOutput> context) {
        super.init(context);
        runs = context.getStateStore(RoutingTopology.RUNS_STORE);
        workspaces = context.getStateStore(RoutingTopology.WORKSPACES_STORE);
        timers = new TimeIndex<>(context.getStateStore(RoutingTopology.TIMERS_STORE));
        routeConfigs = context.getStateStore(RoutingTopology.ROUTE_CONFIG_STORE);
        router = new Router(options.settings(), options.jitter(), this::config);
        runningSince = now();
        context.schedule(punctuationInterval, PunctuationType.WALL_CLOCK_TIME, ms -> fireDue());
        LOG.debug("routing task {} running since {}", context.taskId(), runningSince);
    }

    @Override
    public void process(Record<String, Object> record) {
        Object input = record.value();
        if (input == null || record.key() == null) {
            return;
        }
        if (input instanceof TurnOutcome o && o.recordedAt() != null) {
            input = new TurnOutcome(o.context(), o.outcome(), o.launch(), o.stopReason(), o.assistantOutputSeen(),
                    o.toolActivitySeen(), o.replaySafe(), o.classification(), o.occurredAt(),
                    options.recordClock().apply(o.recordedAt()));
        }
        apply(record.key(), input, now());
    }

    /** Fires every entry of the time index due at or before now, in key order. */
    void fireDue() {
        Instant now = now();
        boolean holdTimeouts = now.isBefore(runningSince.plus(options.settings().dispatchTimeout()));
        timers.fireDue(now, TIMER_LOOP,
                key -> holdTimeouts && TimerEntry.fromKey(key).kind() == RoutingTimerKind.DISPATCH_TIMEOUT,
                (key, workspaceId) -> {
                    TimerEntry entry = TimerEntry.fromKey(key);
                    options.meters().timerLag(TIMER_OWNER, entry.kind().wire(), Duration.between(entry.due(), now));
                    apply(workspaceId, entry, now);
                });
    }

    private void apply(String workspaceId, Object input, Instant now) {
        Map<String, Run> loaded = loadRuns(workspaceId);
        RoutingWorkspaceValue storedWorkspace = workspaces.get(workspaceId);
        WorkspaceState before = RoutingStoreAvro.fromAvro(workspaceId, storedWorkspace, loaded);
        RoutingDecision d = router.decide(input, before, now);
        record(input, d);
        for (String note : d.notes()) {
            LOG.debug("workspace {}: {}", workspaceId, note);
        }
        for (String id : d.changedRuns()) {
            Run run = d.state().run(id);
            if (run == null) {
                runs.delete(runKey(workspaceId, id));
            } else {
                runs.put(runKey(workspaceId, id), RoutingStoreAvro.toAvro(run));
            }
        }
        RoutingWorkspaceValue after = RoutingStoreAvro.toAvro(d.state());
        if (!after.equals(storedWorkspace == null ? RoutingStoreAvro.toAvro(WorkspaceState.empty(workspaceId)) : storedWorkspace)) {
            if (after.getHealth().isEmpty() && after.getCooldowns().isEmpty()) {
                workspaces.delete(workspaceId);
            } else {
                workspaces.put(workspaceId, after);
            }
        }
        for (TimerEntry t : d.cancel()) {
            timers.cancel(t.key());
        }
        for (TimerEntry t : d.arm()) {
            timers.arm(t.key(), workspaceId);
        }
        long timestamp = now.toEpochMilli();
        for (RoutingOutput out : RoutingRecords.of(d, before, this::config, options.settings().dispatchTimeout())) {
            context().forward(new Record<>(out.key(), out, timestamp));
        }
    }

    /**
     * The metrics of one decision (DESIGN §10): for a failed turn whose run the decision changed,
     * {@code recourse_policy_decisions_total{context=office, code, result}} with {@link #result}, and
     * {@code recourse_stale_evidence_total{context=office}} when the run's reason is {@code stale_evidence}.
     */
    private void record(Object input, RoutingDecision d) {
        if (!(input instanceof TurnOutcome o) || o.outcome() != Outcome.FAILED || o.context().runId() == null) {
            return;
        }
        String runId = o.context().runId();
        for (RunState state : d.runStates()) {
            if (runId.equals(state.runId())) {
                options.meters().policyDecision(RecourseMeters.Context.OFFICE,
                        o.classification() == null ? state.code() : o.classification().code(), result(state, d),
                        o.context(), o.classification() == null ? null : o.classification().ruleId());
                if (STALE_EVIDENCE.equals(state.reason())) {
                    options.meters().staleEvidence(RecourseMeters.Context.OFFICE);
                }
                return;
            }
        }
    }

    /**
     * The {@code result} tag of an Office decision: {@code parked} when the decision parks the run,
     * else the run's new status ({@code short_retry}, {@code routing} — launched on the next
     * candidate —, {@code waiting_for_provider_capacity}, {@code waiting_for_cooldown}, {@code declined}, …).
     */
    static String result(RunState state, RoutingDecision d) {
        for (ParkedRunChange change : d.parked()) {
            if (change.runId().equals(state.runId()) && !change.release()) {
                return "parked";
            }
        }
        return state.status().wire();
    }

    private Map<String, Run> loadRuns(String workspaceId) {
        Map<String, Run> out = new LinkedHashMap<>();
        try (KeyValueIterator<String, RoutingRunValue> it = runs.prefixScan(runPrefix(workspaceId), new StringSerializer())) {
            while (it.hasNext()) {
                Run r = RoutingStoreAvro.fromAvro(it.next().value);
                out.put(r.runId(), r);
            }
        }
        return out;
    }

    /** The validated document of a profile from the global store, or {@code null}. */
    private RouteConfig config(String dynamicProfileId) {
        if (dynamicProfileId == null) {
            return null;
        }
        Object raw = routeConfigs.get(dynamicProfileId);
        if (raw instanceof ValueAndTimestamp<?> vt) {
            raw = vt.value();
        }
        if (!(raw instanceof RouteConfigValue value)) {
            configCache.remove(dynamicProfileId);
            return null;
        }
        Cached c = configCache.get(dynamicProfileId);
        if (c == null || !c.value().equals(value)) {
            c = new Cached(value, RoutingAvro.fromAvro(value));
            configCache.put(dynamicProfileId, c);
        }
        return c.config();
    }

    private Instant now() {
        return Instant.ofEpochMilli(context().currentSystemTimeMs());
    }

    /** The runs-store key of a run: {@code <percent-encoded workspace>/<run_id>}. */
    static String runKey(String workspaceId, String runId) {
        return runPrefix(workspaceId) + runId;
    }

    private static String runPrefix(String workspaceId) {
        return URLEncoder.encode(workspaceId, StandardCharsets.UTF_8) + "/";
    }
}
