package io.recourse.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.recourse.config.RecourseConfig;
import io.recourse.ingress.InputBounds;
import io.recourse.runtime.RecourseMetrics;
import io.recourse.runtime.RecourseRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server of one Recourse instance (DESIGN §10), on the JDK's {@link HttpServer}, on
 * {@code recourse.http.host:recourse.http.port}. JSON answers:
 * <ul>
 *   <li>{@code GET /sessions/{id}/recovery} — the interactive owner's state of a session and what it waits for;</li>
 *   <li>{@code GET /workspaces/{id}/provider-health} — every scope's health (state, ladder step, {@code retry_at}) and cooldowns;</li>
 *   <li>{@code GET /workspaces/{id}/runs}, {@code GET /workspaces/{id}/parked-runs},
 *       {@code GET /workspaces/{id}/runs/{run_id}} (= {@code GET /runs/{run_id}?workspace_id={id}}) — route state,
 *       attempts, parked status, next wake; the run store is keyed by workspace, so one run is answered by
 *       its key. {@code GET /runs/{run_id}} without the workspace looks at most
 *       {@link StateQueries#MAX_RUN_SCAN} entries per instance and says so ({@value #SCAN_LIMIT}) when it
 *       stopped there;</li>
 *   <li>{@code GET /overview} — what the status page shows, gathered from every instance;</li>
 *   <li>{@code GET /openapi.json}, {@code GET /health/live}, {@code GET /health/ready}, {@code GET /metrics}
 *       (Prometheus text), {@code GET /} (the status page).</li>
 * </ul>
 * A keyed query is answered by the instance whose active task owns the key
 * ({@link KafkaStreams#queryMetadataForKey}, hosts named by {@code application.server}); another
 * instance forwards it there (one hop, marked by {@value #FORWARDED}). {@code /runs/{id}} without
 * {@code workspace_id} and {@code /overview} ask every instance. While Kafka Streams is not RUNNING or a store restores, queries
 * answer {@code 503} with {@code {"error":"unavailable","reason":…}} and {@code Retry-After}; an unknown
 * key {@code 404}; a path id that is no valid percent-encoded UTF-8 or no valid id
 * ({@code ingress.InputBounds}) {@code 400} with the same JSON body. Ids never
 * reach the log.
 */
public final class RecourseHttp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RecourseHttp.class);
    /** Header marking a request one instance forwarded to another (answered locally, never forwarded again). */
    public static final String FORWARDED = "X-Recourse-Forwarded";
    /** Seconds a {@code 503} asks the client to wait ({@code Retry-After}). */
    static final int RETRY_AFTER_SECONDS = 2;
    static final String JSON = "application/json";

    private static final Pattern SESSION = Pattern.compile("/sessions/([^/]+)/recovery");
    private static final Pattern WORKSPACE = Pattern.compile("/workspaces/([^/]+)/(provider-health|runs|parked-runs)");
    private static final Pattern RUN = Pattern.compile("/runs/([^/]+)");
    private static final Pattern WORKSPACE_RUN = Pattern.compile("/workspaces/([^/]+)/runs/([^/]+)");
    /** The 404 reason when a run looked up without its workspace was not among the entries looked at. */
    static final String SCAN_LIMIT = "not_in_first_entries_pass_workspace_id";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Gauge of the scopes per provider-health state ({@code recourse_provider_health_scopes{state}}). */
    public static final String PROVIDER_HEALTH_SCOPES = "recourse.provider.health.scopes";
    /** The routing owner's health states (its wire names): the gauge's closed label values. */
    static final List<String> HEALTH_STATES = List.of("healthy", "short_retry", "degraded", "user_action_required", "probe_allowed");
    /** Most workspaces the gauge counts (a bound on one scrape's work). */
    static final int MAX_GAUGE_WORKSPACES = 100_000;
    private volatile Map<String, Long> healthCounts = Map.of();
    private volatile long healthCountsAt;
    private static final StringSerializer KEYS = new StringSerializer();

    private final Supplier<KafkaStreams> streams;
    private final PrometheusMeterRegistry registry;
    private final IntSupplier restoring;
    private final Supplier<Instant> clock;
    private final HostInfo self;
    private final HttpServer server;
    private final ExecutorService executor;
    private final HttpClient client;

    RecourseHttp(Supplier<KafkaStreams> streams, PrometheusMeterRegistry registry, IntSupplier restoring,
                         Supplier<Instant> clock, HostInfo self, String host, int port) {
        this.streams = streams;
        this.clock = clock;
        this.registry = registry;
        this.restoring = restoring;
        this.self = self;
        this.executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "recourse-http");
            t.setDaemon(true);
            return t;
        });
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 0);
        } catch (IOException e) {
            executor.shutdownNow();
            throw new UncheckedIOException("cannot serve HTTP on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        for (String state : HEALTH_STATES) {
            Gauge.builder(PROVIDER_HEALTH_SCOPES, () -> healthCounts().getOrDefault(state, 0L))
                    .description("provider-health scopes held by this instance's routing tasks, by state")
                    .tag("state", state).register(registry);
        }
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /**
     * The server of {@code runner}'s instance on its configured host and port, or {@code null} when
     * the port is {@code -1} or cannot be bound (the log says which); for
     * {@link RecourseRunner#withEndpoint}.
     */
    public static RecourseHttp start(RecourseRunner runner) {
        RecourseConfig config = runner.config();
        if (config.httpPort().isEmpty()) {
            LOG.info("HTTP server off ({}=-1)", RecourseConfig.HTTP_PORT);
            return null;
        }
        try {
            RecourseHttp http = new RecourseHttp(runner::streams, runner.metrics().registry(),
                    runner.restoreProgress()::restoring, () -> Instant.ofEpochMilli(runner.time().milliseconds()),
                    applicationServer(config), config.httpHost(),
                    config.httpPort().getAsInt());
            LOG.info("HTTP on {} (status page, queries, /health/ready, /metrics)", http.url());
            return http;
        } catch (UncheckedIOException e) {
            LOG.warn("HTTP server not started ({}): {}", RecourseConfig.HTTP_PORT, e.getMessage());
            return null;
        }
    }

    /** {@code application.server} as a host, or {@code null} when not configured (one instance answers everything). */
    static HostInfo applicationServer(RecourseConfig config) {
        String s = config.streamsProperties().get(StreamsConfig.APPLICATION_SERVER_CONFIG);
        return s == null || s.isBlank() ? null : HostInfo.buildFromEndpoint(s.strip());
    }

    /** The bound address. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** The status page's address, e.g. {@code http://127.0.0.1:9464/}. */
    public String url() {
        InetSocketAddress a = address();
        return "http://" + a.getAddress().getHostAddress() + ":" + a.getPort() + "/";
    }

    // ------------------------------------------------------------------ dispatch

    /** An answer: status, content type, body, and a {@code Retry-After} (0 = none). */
    record Answer(int status, String contentType, byte[] body, int retryAfter) {
        static Answer json(int status, JsonNode body) {
            try {
                return new Answer(status, JSON, MAPPER.writeValueAsBytes(body), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        static Answer error(int status, String error, String reason) {
            ObjectNode o = MAPPER.createObjectNode().put("error", error);
            if (reason != null) {
                o.put("reason", reason);
            }
            return json(status, o);
        }

        static Answer unavailable(String reason) {
            Answer a = error(503, "unavailable", reason);
            return new Answer(503, a.contentType, a.body, RETRY_AFTER_SECONDS);
        }

        static Answer text(int status, String contentType, String body) {
            return new Answer(status, contentType, body.getBytes(StandardCharsets.UTF_8), 0);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Answer a;
            String method = exchange.getRequestMethod();
            if (!"GET".equals(method) && !"HEAD".equals(method)) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                a = Answer.error(405, "method_not_allowed", null);
            } else {
                try {
                    a = answer(exchange.getRequestURI().getRawPath(), exchange.getRequestURI().getRawQuery(),
                            exchange.getRequestHeaders().containsKey(FORWARDED));
                } catch (InvalidStateStoreException e) {
                    a = Answer.unavailable("store_unavailable");
                } catch (RuntimeException e) { // never let a handler die: the JDK server would answer nothing
                    LOG.warn("HTTP handler failed: {}", e.getClass().getName());
                    a = Answer.error(500, "internal", e.getClass().getSimpleName());
                }
            }
            if (a.retryAfter() > 0) {
                exchange.getResponseHeaders().set("Retry-After", String.valueOf(a.retryAfter()));
            }
            exchange.getResponseHeaders().set("Content-Type", a.contentType());
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            boolean head = "HEAD".equals(method);
            exchange.sendResponseHeaders(a.status(), head ? -1 : a.body().length == 0 ? -1 : a.body().length);
            if (!head && a.body().length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(a.body());
                }
            }
        }
    }

    Answer answer(String rawPath, boolean forwarded) {
        return answer(rawPath, null, forwarded);
    }

    /** The answer to {@code GET rawPath?rawQuery} ({@code rawQuery} may be {@code null}). */
    Answer answer(String rawPath, String rawQuery, boolean forwarded) {
        switch (rawPath) {
            case "/", "/index.html":
                return resource("http/index.html", "text/html; charset=utf-8");
            case "/openapi.json":
                return resource("http/openapi.json", JSON);
            case "/health/live":
                return live();
            case "/healthz":
                return healthz();
            case "/health/ready":
                return ready();
            case "/metrics":
                return Answer.text(200, RecourseMetrics.PROMETHEUS_TEXT, registry.scrape());
            case "/overview":
                return overview(forwarded);
            default:
                break;
        }
        Matcher m = SESSION.matcher(rawPath);
        if (m.matches()) {
            if (HttpIds.id(m.group(1)).isEmpty()) {
                return badEncoding("session id");
            }
            Optional<String> id = HttpIds.id(m.group(1)).filter(InputBounds::isSessionId);
            if (id.isEmpty()) {
                return Answer.error(400, "bad_id", "session id " + InputBounds.SESSION_ID_RULE);
            }
            return keyed(StateQueries.SESSIONS_STORE, id.get(), rawPath, forwarded, q -> q.recovery(id.get()));
        }
        m = WORKSPACE_RUN.matcher(rawPath);
        if (m.matches()) {
            return run(m.group(1), m.group(2), rawPath, forwarded);
        }
        m = WORKSPACE.matcher(rawPath);
        if (m.matches()) {
            if (HttpIds.id(m.group(1)).isEmpty()) {
                return badEncoding("workspace id");
            }
            Optional<String> id = HttpIds.id(m.group(1)).filter(InputBounds::isId);
            if (id.isEmpty()) {
                return Answer.error(400, "bad_id", "workspace id " + InputBounds.ID_RULE);
            }
            String what = m.group(2);
            return keyed(what.equals("provider-health") ? StateQueries.WORKSPACES_STORE : StateQueries.RUNS_STORE,
                    id.get(), rawPath, forwarded, q -> switch (what) {
                        case "provider-health" -> q.providerHealth(id.get());
                        case "runs" -> q.runs(id.get(), false).map(r -> wrap("runs", id.get(), r));
                        default -> Optional.of(wrap("parked_runs", id.get(), q.runs(id.get(), true).orElseThrow()));
                    });
        }
        m = RUN.matcher(rawPath);
        if (m.matches()) {
            Optional<String> workspace = HttpIds.queryParameter(rawQuery, "workspace_id");
            if (workspace.isPresent()) {
                return run(workspace.get(), m.group(1), rawPath + "?" + rawQuery, forwarded);
            }
            if (HttpIds.id(m.group(1)).isEmpty()) {
                return badEncoding("run id");
            }
            Optional<String> id = HttpIds.id(m.group(1)).filter(InputBounds::isId);
            if (id.isEmpty()) {
                return Answer.error(400, "bad_id", "run id " + InputBounds.ID_RULE);
            }
            return run(id.get(), rawPath, forwarded);
        }
        return Answer.error(404, "not_found", "no such path");
    }

    private static JsonNode wrap(String field, String workspaceId, ArrayNode items) {
        ObjectNode o = MAPPER.createObjectNode().put("workspace_id", workspaceId);
        o.set(field, items);
        return o;
    }

    /** The {@code 400} for an id whose percent-encoding or UTF-8 is invalid. */
    private static Answer badEncoding(String what) {
        return Answer.error(400, "bad_id", what + " is not valid percent-encoded UTF-8");
    }

    private Answer resource(String name, String contentType) {
        try (InputStream in = RecourseHttp.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                return Answer.error(404, "not_found", "no such resource");
            }
            return new Answer(200, contentType, in.readAllBytes(), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ health

    /** Scopes per health state in this instance's workspaces store, recomputed at most every 5 s; empty while not ready. */
    private Map<String, Long> healthCounts() {
        long now = System.nanoTime();
        if (now - healthCountsAt < Duration.ofSeconds(5).toNanos()) {
            return healthCounts;
        }
        Map<String, Long> counts = new HashMap<>();
        try {
            if (notReady().isEmpty()) {
                for (JsonNode w : new StateQueries(streams.get()).workspaces(MAX_GAUGE_WORKSPACES)) {
                    for (JsonNode h : w.get("health")) {
                        counts.merge(h.path("state").asText(), 1L, Long::sum);
                    }
                }
            }
        } catch (InvalidStateStoreException e) {
            counts.clear();
        }
        healthCounts = counts;
        healthCountsAt = now;
        return counts;
    }

    /** The metrics endpoint's probe, kept as it was: {@code 200 RUNNING|REBALANCING}, else {@code 503 <state>}, plain text. */
    private Answer healthz() {
        KafkaStreams s = streams.get();
        KafkaStreams.State state = s == null ? null : s.state();
        boolean up = state != null && state.isRunningOrRebalancing();
        return Answer.text(up ? 200 : 503, "text/plain; charset=utf-8", String.valueOf(state) + "\n");
    }

    private Answer live() {
        KafkaStreams s = streams.get();
        KafkaStreams.State state = s == null ? null : s.state();
        boolean alive = state != null && state != KafkaStreams.State.ERROR && state != KafkaStreams.State.NOT_RUNNING
                && state != KafkaStreams.State.PENDING_ERROR && state != KafkaStreams.State.PENDING_SHUTDOWN;
        return Answer.json(alive ? 200 : 503, MAPPER.createObjectNode().put("live", alive).put("state", String.valueOf(state)));
    }

    private Answer ready() {
        Optional<String> why = notReady();
        ObjectNode o = MAPPER.createObjectNode().put("ready", why.isEmpty());
        KafkaStreams s = streams.get();
        o.put("state", s == null ? "null" : s.state().toString());
        why.ifPresent(r -> o.put("reason", r));
        o.put("restoring_partitions", restoring.getAsInt());
        Answer a = Answer.json(why.isEmpty() ? 200 : 503, o);
        return why.isEmpty() ? a : new Answer(503, a.contentType(), a.body(), RETRY_AFTER_SECONDS);
    }

    /** Why queries cannot be answered now (closed vocabulary), or empty when they can. */
    Optional<String> notReady() {
        KafkaStreams s = streams.get();
        if (s == null) {
            return Optional.of("not_started");
        }
        KafkaStreams.State state = s.state();
        if (state == KafkaStreams.State.REBALANCING) {
            return Optional.of("rebalancing");
        }
        if (state != KafkaStreams.State.RUNNING) {
            return Optional.of("not_running");
        }
        if (restoring.getAsInt() > 0) {
            return Optional.of("restoring");
        }
        try {
            new StateQueries(s).queryable(hostedHere(s));
        } catch (InvalidStateStoreException e) {
            return Optional.of("store_unavailable");
        }
        return Optional.empty();
    }

    /** The stores this instance hosts an active partition of (all of them without {@code application.server}). */
    private Set<String> hostedHere(KafkaStreams s) {
        if (self == null) {
            return Set.copyOf(StateQueries.STORES);
        }
        Set<String> out = new HashSet<>();
        for (StreamsMetadata m : s.metadataForAllStreamsClients()) {
            if (self.equals(m.hostInfo())) {
                out.addAll(m.stateStoreNames());
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ queries

    private interface Query {
        Optional<JsonNode> apply(StateQueries q);
    }

    private Answer keyed(String store, String key, String rawPath, boolean forwarded, Query query) {
        Optional<String> why = notReady();
        if (why.isPresent()) {
            return Answer.unavailable(why.get());
        }
        KafkaStreams s = streams.get();
        if (self != null) {
            KeyQueryMetadata m = s.queryMetadataForKey(store, key, KEYS);
            if (m == null || KeyQueryMetadata.NOT_AVAILABLE.equals(m)) {
                return Answer.unavailable("rebalancing");
            }
            if (!self.equals(m.activeHost())) {
                if (forwarded) {
                    return Answer.unavailable("ownership_moving");
                }
                return forward(m.activeHost(), rawPath);
            }
        }
        return query.apply(new StateQueries(s)).map(j -> Answer.json(200, j))
                .orElseGet(() -> Answer.error(404, "unknown_key", null));
    }

    private Answer forward(HostInfo host, String rawPath) {
        try {
            HttpResponse<byte[]> r = client.send(request(host, rawPath), HttpResponse.BodyHandlers.ofByteArray());
            int retry = r.headers().firstValue("Retry-After").map(v -> parseOr(v, RETRY_AFTER_SECONDS)).orElse(0);
            return new Answer(r.statusCode(), r.headers().firstValue("Content-Type").orElse(JSON), r.body(), retry);
        } catch (IOException e) {
            return Answer.unavailable("owner_unreachable");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Answer.unavailable("owner_unreachable");
        }
    }

    private static HttpRequest request(HostInfo host, String rawPath) {
        return HttpRequest.newBuilder(URI.create("http://" + host.host() + ":" + host.port() + rawPath))
                .timeout(Duration.ofSeconds(5)).header(FORWARDED, "1").GET().build();
    }

    private static int parseOr(String v, int fallback) {
        try {
            return Math.max(1, Integer.parseInt(v.strip()));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** The other instances of the group (by {@code application.server}). */
    private List<HostInfo> others(KafkaStreams s) {
        List<HostInfo> out = new ArrayList<>();
        if (self == null) {
            return out;
        }
        for (StreamsMetadata m : s.metadataForAllStreamsClients()) {
            HostInfo h = m.hostInfo();
            if (h != null && !self.equals(h) && h.port() > 0 && !out.contains(h)) {
                out.add(h);
            }
        }
        return out;
    }

    /**
     * One run by its store key ({@code urlencode(workspace) "/" run_id}): the owner of the workspace
     * answers (forwarded there), no scan. {@code rawWorkspace} and {@code rawRun} are still encoded.
     */
    private Answer run(String rawWorkspace, String rawRun, String rawPathAndQuery, boolean forwarded) {
        Optional<String> workspace = HttpIds.id(rawWorkspace);
        Optional<String> run = HttpIds.id(rawRun);
        if (workspace.isEmpty() || run.isEmpty()) {
            return badEncoding(workspace.isEmpty() ? "workspace id" : "run id");
        }
        if (!InputBounds.isId(workspace.get())) {
            return Answer.error(400, "bad_id", "workspace id " + InputBounds.ID_RULE);
        }
        if (!InputBounds.isId(run.get())) {
            return Answer.error(400, "bad_id", "run id " + InputBounds.ID_RULE);
        }
        return keyed(StateQueries.RUNS_STORE, workspace.get(), rawPathAndQuery, forwarded,
                q -> q.run(workspace.get(), run.get()));
    }

    /** One run without its workspace: a bounded look-up on every instance ({@link StateQueries#MAX_RUN_SCAN}). */
    private Answer run(String runId, String rawPath, boolean forwarded) {
        Optional<String> why = notReady();
        if (why.isPresent()) {
            return Answer.unavailable(why.get());
        }
        KafkaStreams s = streams.get();
        StateQueries.Lookup local = new StateQueries(s).run(runId);
        if (local.found().isPresent()) {
            return Answer.json(200, local.found().get());
        }
        boolean complete = local.complete();
        if (!forwarded) {
            for (HostInfo h : others(s)) {
                Answer a = forward(h, rawPath);
                if (a.status() != 404) {
                    return a;
                }
                complete &= !new String(a.body(), StandardCharsets.UTF_8).contains(SCAN_LIMIT);
            }
        }
        return Answer.error(404, "unknown_key", complete ? null : SCAN_LIMIT);
    }

    private Answer overview(boolean forwarded) {
        Optional<String> why = notReady();
        if (why.isPresent()) {
            return Answer.unavailable(why.get());
        }
        KafkaStreams s = streams.get();
        StateQueries q = new StateQueries(s);
        ObjectNode o = MAPPER.createObjectNode();
        o.put("now", clock.get().toString()); // the instance's clock: the page counts down on it
        ArrayNode workspaces = o.putArray("workspaces");
        ArrayNode parked = o.putArray("parked_runs");
        ArrayNode sessions = o.putArray("sessions_in_recovery");
        workspaces.addAll(q.workspaces());
        parked.addAll(q.parkedRuns());
        sessions.addAll(q.sessionsInRecovery());
        int instances = 1;
        if (!forwarded) {
            for (HostInfo h : others(s)) {
                Answer a = forward(h, "/overview");
                if (a.status() != 200) {
                    return Answer.unavailable("instance_unavailable");
                }
                try {
                    JsonNode other = MAPPER.readTree(a.body());
                    workspaces.addAll((ArrayNode) other.get("workspaces"));
                    parked.addAll((ArrayNode) other.get("parked_runs"));
                    sessions.addAll((ArrayNode) other.get("sessions_in_recovery"));
                    instances++;
                } catch (IOException | RuntimeException e) {
                    return Answer.unavailable("instance_unavailable");
                }
            }
        }
        o.put("instances", instances);
        return Answer.json(200, o);
    }

    /** Stops the server at once and its threads. Idempotent. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

}
