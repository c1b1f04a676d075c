package io.recourse.runtime;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.RecourseMeters;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Recourse's metrics in one process (DESIGN §10): a {@link PrometheusMeterRegistry} holding the
 * {@link RecourseMeters} the processors record into, Kafka Streams' own client metrics
 * ({@link KafkaStreamsMetrics}, once {@link #bind(KafkaStreams)} is called) and the JVM's (memory,
 * GC, threads, CPU, uptime); and the HTTP endpoint that serves them, on the JDK's
 * {@link HttpServer}:
 * <ul>
 *   <li>{@code GET /metrics} — the Prometheus text exposition format (version 0.0.4);</li>
 *   <li>{@code GET /healthz} — {@code 200 RUNNING} / {@code 200 REBALANCING} while Kafka Streams is
 *       running or rebalancing, {@code 503 <state>} otherwise.</li>
 * </ul>
 * {@link RecourseRunner} owns one per start; {@link #close()} stops the endpoint and the binders.
 */
public final class RecourseMetrics implements AutoCloseable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RecourseMetrics.class);

    /** Content type of the Prometheus text format. */
    public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    /**
     * Kafka Streams' RocksDB {@code number-open-files} metric (recording level DEBUG and up): a
     * constant {@code -1} since RocksDB 9.7.3 dropped the file-close ticker (Kafka Streams 4.0
     * upgrade notes), kept until Kafka removes it. It is a cumulative sum, so Micrometer binds it as
     * a counter, and the Prometheus client refuses a negative counter value, failing the whole
     * scrape; it carries no information, so it is not registered (DESIGN §10).
     */
    static final String ROCKSDB_NUMBER_OPEN_FILES = "kafka.stream.state.number.open.files";

    private final PrometheusMeterRegistry registry = newRegistry();
    private final RecourseMeters meters;
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private KafkaStreamsMetrics streamsMetrics;
    private HttpServer server;

    /** A registry with the Recourse meters (built-in label lists) and the JVM binders; no endpoint yet. */
    public RecourseMetrics() {
        this(java.util.Set.of(), java.util.Set.of());
    }

    /**
     * A registry with the Recourse meters and the JVM binders; no endpoint yet. The {@code agent_type}
     * and {@code provider} labels allow the built-in lists plus the configured
     * {@link RecourseConfig#METRICS_AGENT_TYPES} / {@link RecourseConfig#METRICS_PROVIDERS} (DESIGN §10).
     */
    public RecourseMetrics(RecourseConfig config) {
        this(config.metricsAgentTypes(), config.metricsProviders());
    }

    private RecourseMetrics(java.util.Set<String> agentTypes, java.util.Set<String> providers) {
        meters = new RecourseMeters(new io.recourse.evidence.streams.EvidenceCounters(registry), agentTypes, providers);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    private static PrometheusMeterRegistry newRegistry() {
        PrometheusMeterRegistry r = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        r.config().meterFilter(MeterFilter.deny(id -> id.getName().equals(ROCKSDB_NUMBER_OPEN_FILES)));
        return r;
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** The meters the topology's processors record into (give them to {@code RecourseTopology.build}). */
    public RecourseMeters meters() {
        return meters;
    }

    /** Binds Kafka Streams' client metrics ({@code kafka_stream_*}) of {@code streams}; call once, before it starts. */
    public synchronized void bind(KafkaStreams streams) {
        if (streamsMetrics != null) {
            throw new IllegalStateException("Kafka Streams metrics are already bound");
        }
        streamsMetrics = new KafkaStreamsMetrics(Objects.requireNonNull(streams, "streams"));
        streamsMetrics.bindTo(registry);
    }

    /** The registry's current Prometheus text. */
    public String scrape() {
        return registry.scrape();
    }

    /**
     * Starts the endpoint on {@code host:port} ({@code port} 0 = a free port).
     *
     * @param state the Kafka Streams state {@code /healthz} reports ({@code null} counts as not running)
     * @return the bound address (the actual port when {@code port} was 0)
     * @throws UncheckedIOException when the address cannot be bound (e.g. the port is in use)
     * @throws IllegalStateException when the endpoint is already started
     */
    public synchronized InetSocketAddress serve(String host, int port, Supplier<KafkaStreams.State> state) {
        if (server != null) {
            throw new IllegalStateException("the metrics endpoint is already started on " + server.getAddress());
        }
        Objects.requireNonNull(state, "state");
        try {
            HttpServer s = HttpServer.create(new InetSocketAddress(host, port), 0);
            s.createContext("/metrics", exchange -> {
                String body;
                try {
                    body = scrape();
                } catch (RuntimeException e) { // never let the handler die: the JDK server would answer nothing
                    LOG.warn("metrics scrape failed: {}", e.getClass().getName());
                    respond(exchange, 500, "text/plain; charset=utf-8", "scrape failed: " + e.getClass().getSimpleName() + "\n");
                    return;
                }
                respond(exchange, 200, PROMETHEUS_TEXT, body);
            });
            s.createContext("/healthz", exchange -> {
                KafkaStreams.State now = state.get();
                boolean healthy = now == KafkaStreams.State.RUNNING || now == KafkaStreams.State.REBALANCING;
                respond(exchange, healthy ? 200 : 503, "text/plain; charset=utf-8", String.valueOf(now) + "\n");
            });
            s.start();
            server = s;
            return s.getAddress();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** The endpoint's bound address, or empty when it is not started. */
    public synchronized Optional<InetSocketAddress> address() {
        return Optional.ofNullable(server).map(HttpServer::getAddress);
    }

    private static void respond(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        try (exchange) {
            // exact paths only: the JDK matches contexts by prefix
            String path = exchange.getRequestURI().getPath();
            if (!path.equals(exchange.getHttpContext().getPath())) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            if (!head && !"GET".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    /** Stops the endpoint (at once), the Kafka Streams and GC binders, and closes the registry. Idempotent. */
    @Override
    public synchronized void close() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
        if (streamsMetrics != null) {
            streamsMetrics.close();
            streamsMetrics = null;
        }
        gc.close();
        registry.close();
    }
}
