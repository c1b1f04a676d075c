package io.recourse.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.avro.RoutingRunValue;
import io.recourse.avro.RoutingWorkspaceValue;
import io.recourse.avro.SessionChain;
import io.recourse.avro.SessionStateValue;
import io.recourse.ingress.InputBounds;
import io.recourse.kit.AvroJson;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Remediation;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Reads the owners' changelogged stores of this instance through Kafka Streams' interactive queries
 * (names as in {@code topology-docs/topology.txt}), and shapes their values into the JSON of the HTTP
 * API (DESIGN §10). Nothing here decides anything: it shows what the stores hold. A raw
 * {@code provider_id} of the session store shows only when it is a name ({@code [a-z0-9][a-z0-9._-]*}),
 * else as {@code other}; the session's {@code model_id} and prompt digests are not shown.
 *
 * <p>Store access throws Kafka's {@code InvalidStateStoreException} while a store is not queryable
 * here (restoring, migrated); the server answers {@code 503} then.
 */
final class StateQueries {

    /** The interactive owner's sessions, {@code session_id} → {@code SessionStateValue}. */
    static final String SESSIONS_STORE = "recourse-interactive-sessions";
    /** The routing owner's runs, {@code urlencode(workspace_id) "/" run_id} → {@code RoutingRunValue}. */
    static final String RUNS_STORE = "recourse-routing-runs";
    /** The routing owner's provider health, {@code workspace_id} → {@code RoutingWorkspaceValue}. */
    static final String WORKSPACES_STORE = "recourse-routing-workspaces";
    /** Every store the API reads (readiness checks each). */
    static final List<String> STORES = List.of(SESSIONS_STORE, RUNS_STORE, WORKSPACES_STORE);

    /** Statuses of a session in recovery (a countdown, a dispatch or an outcome awaited). */
    static final Set<String> RECOVERING = Set.of("scheduled", "dispatching", "awaiting_outcome");
    /** Most entries a listing returns (runs of a workspace, the overview's lists). */
    static final int MAX_LIST = 500;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final StringSerializer KEYS = new StringSerializer();

    private final KafkaStreams streams;

    StateQueries(KafkaStreams streams) {
        this.streams = streams;
    }

    private <V> ReadOnlyKeyValueStore<String, V> store(String name) {
        return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.<String, V>keyValueStore()));
    }

    /** Whether every store answers here (a store this instance hosts no partition of counts as answering). */
    boolean queryable(Set<String> hostedHere) {
        for (String name : STORES) {
            if (hostedHere.contains(name)) {
                store(name).approximateNumEntries();
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ sessions

    Optional<JsonNode> recovery(String sessionId) {
        SessionStateValue v = this.<SessionStateValue>store(SESSIONS_STORE).get(sessionId);
        return Optional.ofNullable(v).map(StateQueries::recovery);
    }

    /** The recovery view of a session's stored state, with {@code waiting_for}. */
    static ObjectNode recovery(SessionStateValue v) {
        ObjectNode o = F.objectNode();
        o.put("session_id", v.getSessionId());
        o.put("status", v.getStatus());
        o.put("reason", v.getReason());
        o.put("code", v.getCode());
        o.put("rule_id", v.getRuleId());
        String provider = v.getProviderId();
        o.put("provider_label", provider == null ? null : InputBounds.isName(provider) ? provider : "other");
        o.put("generation", v.getHighestGeneration());
        o.put("last_outcome_generation", v.getLastOutcomeGeneration());
        o.put("last_event_at", instant(v.getLastEventAt()));
        o.put("reset_at", instant(v.getResetAt()));
        Remediation remediation = remediation(v.getCode());
        o.put("remediation", remediation == null ? null : remediation.wire());
        SessionChain c = v.getChain();
        if (c == null) {
            o.putNull("chain");
        } else {
            ObjectNode chain = o.putObject("chain");
            chain.put("attempt", c.getAttempt());
            chain.put("start_generation", c.getStartGeneration());
            chain.put("expected_generation", c.getExpectedGeneration());
            chain.put("pending_command_id", c.getPendingCommandId());
            chain.put("retry_at", instant(c.getRetryAt()));
            chain.put("issued_at", instant(c.getIssuedAt()));
            chain.put("dispatch_timeout_at", instant(c.getDispatchTimeoutAt()));
        }
        o.put("waiting_for", waitingFor(v.getStatus()));
        o.put("countdown_to", c == null ? null : switch (v.getStatus()) {
            case "scheduled" -> instant(c.getRetryAt());
            case "dispatching" -> instant(c.getDispatchTimeoutAt());
            default -> null;
        });
        return o;
    }

    /** What the user can do about the stored code (DESIGN §6.5); {@code null} for a code without one or an unknown one. */
    static Remediation remediation(String code) {
        if (code == null) {
            return null;
        }
        try {
            return Remediation.of(Code.fromWire(code));
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }

    /** What the interactive owner waits for in {@code status}: a closed vocabulary. */
    static String waitingFor(String status) {
        return switch (status) {
            case "scheduled" -> "retry_at";
            case "dispatching" -> "dispatch_ack";
            case "awaiting_outcome" -> "turn_outcome";
            case "manual" -> "user";
            default -> "nothing";
        };
    }

    /** Sessions in recovery held here, at most {@value #MAX_LIST}. */
    ArrayNode sessionsInRecovery() {
        ArrayNode out = F.arrayNode();
        try (KeyValueIterator<String, SessionStateValue> it = this.<SessionStateValue>store(SESSIONS_STORE).all()) {
            while (it.hasNext() && out.size() < MAX_LIST) {
                SessionStateValue v = it.next().value;
                if (v != null && RECOVERING.contains(v.getStatus())) {
                    out.add(recovery(v));
                }
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ routing

    Optional<JsonNode> providerHealth(String workspaceId) {
        RoutingWorkspaceValue v = this.<RoutingWorkspaceValue>store(WORKSPACES_STORE).get(workspaceId);
        return Optional.ofNullable(v).map(StateQueries::workspace);
    }

    static ObjectNode workspace(RoutingWorkspaceValue v) {
        ObjectNode o = F.objectNode();
        o.put("workspace_id", v.getWorkspaceId());
        JsonNode state = AvroJson.toJson(v);
        o.set("health", state.get("health"));
        o.set("cooldowns", state.get("cooldowns"));
        return o;
    }

    /** Every workspace with provider health held here, at most {@value #MAX_LIST}. */
    ArrayNode workspaces() {
        return workspaces(MAX_LIST);
    }

    /** Every workspace with provider health held here, at most {@code limit}. */
    ArrayNode workspaces(int limit) {
        ArrayNode out = F.arrayNode();
        try (KeyValueIterator<String, RoutingWorkspaceValue> it = this.<RoutingWorkspaceValue>store(WORKSPACES_STORE).all()) {
            while (it.hasNext() && out.size() < limit) {
                RoutingWorkspaceValue v = it.next().value;
                if (v != null) {
                    out.add(workspace(v));
                }
            }
        }
        return out;
    }

    /** The runs of {@code workspaceId} ({@code parkedOnly}: the parked ones), or empty when it has none. */
    Optional<ArrayNode> runs(String workspaceId, boolean parkedOnly) {
        ArrayNode out = F.arrayNode();
        String prefix = runPrefix(workspaceId);
        try (KeyValueIterator<String, RoutingRunValue> it = this.<RoutingRunValue>store(RUNS_STORE).prefixScan(prefix, KEYS)) {
            while (it.hasNext() && out.size() < MAX_LIST) {
                RoutingRunValue v = it.next().value;
                if (v != null && (!parkedOnly || v.getParked())) {
                    out.add(run(v));
                }
            }
        }
        if (out.isEmpty() && !parkedOnly && providerHealth(workspaceId).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(out);
    }

    /** Most run-store entries {@link #run(String)} looks at (a bound on one request's work). */
    static final int MAX_RUN_SCAN = 10_000;

    /**
     * A look-up that may have stopped early: the value, and whether every entry was looked at.
     *
     * @param found    the run's view, if found
     * @param complete {@code false} when the look-up stopped at its bound without finding it
     */
    record Lookup(Optional<JsonNode> found, boolean complete) {
    }

    /** The run {@code runId} of {@code workspaceId} held here, by its store key (no scan), or empty. */
    Optional<JsonNode> run(String workspaceId, String runId) {
        RoutingRunValue v = this.<RoutingRunValue>store(RUNS_STORE).get(runPrefix(workspaceId) + runId);
        return Optional.ofNullable(v).map(StateQueries::run);
    }

    /** The run {@code runId} held here (any workspace), looking at most {@value #MAX_RUN_SCAN} entries. */
    Lookup run(String runId) {
        String suffix = "/" + runId;
        int seen = 0;
        try (KeyValueIterator<String, RoutingRunValue> it = this.<RoutingRunValue>store(RUNS_STORE).all()) {
            while (it.hasNext()) {
                if (++seen > MAX_RUN_SCAN) {
                    return new Lookup(Optional.empty(), false);
                }
                var kv = it.next();
                if (kv.key.endsWith(suffix) && kv.value != null && runId.equals(kv.value.getRunId())) {
                    return new Lookup(Optional.of(run(kv.value)), true);
                }
            }
        }
        return new Lookup(Optional.empty(), true);
    }

    /** Parked runs held here (every workspace), at most {@value #MAX_LIST}. */
    ArrayNode parkedRuns() {
        ArrayNode out = F.arrayNode();
        try (KeyValueIterator<String, RoutingRunValue> it = this.<RoutingRunValue>store(RUNS_STORE).all()) {
            while (it.hasNext() && out.size() < MAX_LIST) {
                RoutingRunValue v = it.next().value;
                if (v != null && v.getParked()) {
                    out.add(run(v));
                }
            }
        }
        return out;
    }

    static ObjectNode run(RoutingRunValue v) {
        ObjectNode o = F.objectNode();
        o.put("run_id", v.getRunId());
        o.put("workspace_id", v.getWorkspaceId());
        o.put("dynamic_profile_id", v.getDynamicProfileId());
        o.put("status", v.getStatus());
        o.put("candidate_index", v.getCandidateIndex());
        o.put("attempt", v.getAttempt());
        o.put("cycle", v.getCycle());
        o.put("retry_ordinal", v.getRetryOrdinal());
        o.put("max_retries", v.getMaxRetries());
        o.put("retry_at", instant(v.getRetryAt()));
        o.put("parked", v.getParked());
        o.put("wake_at", instant(v.getWakeAt()));
        o.set("waiting_on", v.getWaitingOn() == null ? F.nullNode() : AvroJson.toJson(v.getWaitingOn()));
        o.put("pending_command_id", v.getPendingCommandId());
        o.put("code", v.getCode());
        o.put("reason", v.getReason());
        o.put("updated_at", instant(v.getUpdatedAt()));
        return o;
    }

    /** The routing owner's run-key prefix of a workspace (its key layout: {@code urlencode(workspace) "/"}). */
    static String runPrefix(String workspaceId) {
        return URLEncoder.encode(workspaceId, StandardCharsets.UTF_8) + "/";
    }

    private static String instant(Instant i) {
        return i == null ? null : i.toString();
    }
}
