package io.recourse.runtime;

import io.recourse.config.RecourseConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node KRaft Kafka broker (combined broker + controller) running in this JVM from the
 * main jars — Recourse's default cluster when no {@code bootstrap.servers} is configured.
 *
 * <p>It listens on {@code 127.0.0.1} only. Its data lives in {@code dataDir}; the first start
 * formats the directory ({@code kafka-storage format --standalone}), later starts reuse it — and
 * the ports of the first start, kept in {@code recourse-broker.properties} beside the data — so a
 * restarted broker finds its topics, offsets and transactions again. Settings for exactly-once on
 * one node: replication factor 1 and min ISR 1 for the offsets and transaction-state topics.
 *
 * <p>{@link #start()} blocks until an {@code Admin.describeCluster()} sees the broker (about 3 s
 * cold on this machine). Closing stops it and waits for the shutdown to finish; a closed broker
 * can be started again by a new instance on the same directory.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    private static final String HOST = "127.0.0.1";
    private static final String PORTS_FILE = "recourse-broker.properties";
    private static final int NODE_ID = 1;

    private final Path dataDir;
    private final int requestedPort;
    private final int requestedControllerPort;
    private final Map<String, String> overrides;
    private KafkaRaftServer server;
    private int port;
    private int controllerPort;
    private Duration startupTime;

    /**
     * @param dataDir        the broker's directory (created when absent); holds the log dir and port file
     * @param port           client port, 0 = free port (or the port of an earlier start on this directory)
     * @param controllerPort controller port, 0 = free port (or the earlier one)
     * @param overrides      extra broker properties, applied last
     */
    public EmbeddedKafkaBroker(Path dataDir, int port, int controllerPort, Map<String, String> overrides) {
        this.dataDir = dataDir.toAbsolutePath();
        this.requestedPort = port;
        this.requestedControllerPort = controllerPort;
        this.overrides = Map.copyOf(overrides);
    }

    /** A broker on free ports with data in {@code dataDir}. */
    public EmbeddedKafkaBroker(Path dataDir) {
        this(dataDir, 0, 0, Map.of());
    }

    /**
     * Broker properties for a broker whose clients stamp records with a clock running ahead of the
     * broker's (the demos' scaled clock, {@code io.recourse.runtime.ScaledTime}): accept any future
     * {@code CreateTime} ({@code log.message.timestamp.after.max.ms}, default 1 h), and apply no
     * time-based retention ({@code log.retention.ms=-1}; the demos delete the directory afterwards).
     * With a time limit, the retention check finds segments whose largest timestamp lies in the
     * broker's future, which it can never age, and warns about each of them.
     */
    public static Map<String, String> scaledClockOverrides() {
        return Map.of("log.message.timestamp.after.max.ms", String.valueOf(Long.MAX_VALUE), "log.retention.ms", "-1");
    }

    /**
     * The client port an embedded broker last used in {@code dataDir} (from its port file), if it is
     * accepting connections on {@code 127.0.0.1} now: another process ({@code recourse run}) is running it.
     */
    public static java.util.OptionalInt runningPort(Path dataDir) {
        Path file = dataDir.resolve(PORTS_FILE);
        if (!Files.exists(file)) {
            return java.util.OptionalInt.empty();
        }
        Properties saved = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            saved.load(r);
            int p = Integer.parseInt(saved.getProperty("port", "0"));
            if (p <= 0) {
                return java.util.OptionalInt.empty();
            }
            try (java.net.Socket socket = new java.net.Socket()) {
                socket.connect(new java.net.InetSocketAddress(HOST, p), 500);
                return java.util.OptionalInt.of(p);
            }
        } catch (IOException | NumberFormatException e) {
            return java.util.OptionalInt.empty();
        }
    }

    /** The broker Recourse starts for {@code config}: data under {@code <state.dir>/broker}. */
    public static EmbeddedKafkaBroker forConfig(RecourseConfig config) {
        return new EmbeddedKafkaBroker(config.stateDir().resolve("broker"), config.embeddedPort(),
                config.embeddedControllerPort(), Map.of());
    }

    /**
     * Formats the data directory if needed, starts the broker, and waits until it serves requests.
     *
     * @return this broker
     * @throws IllegalStateException when already started, formatting fails, or the broker does not
     *                               answer within 60 s
     */
    public synchronized EmbeddedKafkaBroker start() {
        if (server != null) {
            throw new IllegalStateException("embedded broker already started");
        }
        long t0 = System.nanoTime();
        try {
            Files.createDirectories(dataDir);
            resolvePorts();
            Properties props = brokerProperties();
            Path logDir = dataDir.resolve("kraft-logs");
            if (!Files.exists(logDir.resolve("meta.properties"))) {
                format(props);
            }
            KafkaRaftServer s = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
            s.startup();
            server = s;
            awaitReady(Duration.ofSeconds(60));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare embedded broker in " + dataDir, e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        startupTime = Duration.ofNanos(System.nanoTime() - t0);
        LOG.info("embedded Kafka broker listening on {} (data {}, started in {} ms)", bootstrapServers(), dataDir,
                startupTime.toMillis());
        return this;
    }

    /** {@code 127.0.0.1:<port>}, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return HOST + ":" + port;
    }

    /** The client port (valid after {@link #start()}). */
    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** How long the last {@link #start()} took, or {@code null} before it. */
    public Duration startupTime() {
        return startupTime;
    }

    public synchronized boolean running() {
        return server != null;
    }

    /** Stops the broker and waits until it has shut down. Idempotent. */
    @Override
    public synchronized void close() {
        if (server == null) {
            return;
        }
        KafkaRaftServer s = server;
        server = null;
        long t0 = System.nanoTime();
        s.shutdown();
        s.awaitShutdown();
        LOG.info("embedded Kafka broker on {} stopped in {} ms", bootstrapServers(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    private void resolvePorts() throws IOException {
        Path file = dataDir.resolve(PORTS_FILE);
        Properties saved = new Properties();
        if (Files.exists(file)) {
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                saved.load(r);
            }
        }
        port = requestedPort != 0 ? requestedPort : Integer.parseInt(saved.getProperty("port", "0"));
        controllerPort = requestedControllerPort != 0 ? requestedControllerPort
                : Integer.parseInt(saved.getProperty("controller.port", "0"));
        if (port == 0) {
            port = freePort();
        }
        if (controllerPort == 0 || controllerPort == port) {
            do {
                controllerPort = freePort();
            } while (controllerPort == port);
        }
        saved.setProperty("port", String.valueOf(port));
        saved.setProperty("controller.port", String.valueOf(controllerPort));
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            saved.store(w, "ports of the embedded broker; reused on restart (the controller address is part of the KRaft metadata)");
        }
    }

    private Properties brokerProperties() {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(NODE_ID));
        p.put("controller.quorum.bootstrap.servers", HOST + ":" + controllerPort);
        p.put("listeners", "PLAINTEXT://" + HOST + ":" + port + ",CONTROLLER://" + HOST + ":" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://" + HOST + ":" + port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", dataDir.resolve("kraft-logs").toString());
        // one node: exactly-once needs these internal topics to accept a single replica
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "5");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        p.put("num.partitions", "1");
        p.put("auto.create.topics.enable", "false");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("log.cleaner.dedupe.buffer.size", String.valueOf(2 * 1024 * 1024));
        p.put("log.segment.bytes", String.valueOf(16 * 1024 * 1024));
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.putAll(overrides);
        return p;
    }

    private void format(Properties props) throws IOException {
        Path configFile = dataDir.resolve("server.properties");
        try (Writer w = Files.newBufferedWriter(configFile, StandardCharsets.UTF_8)) {
            props.store(w, "embedded broker configuration (written for kafka-storage format)");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String clusterId = Uuid.randomUuid().toString();
        int rc;
        try (PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            rc = StorageTool.execute(new String[] {"format", "-t", clusterId, "-c", configFile.toString(), "--standalone"}, ps);
        }
        String output = out.toString(StandardCharsets.UTF_8).trim();
        if (rc != 0) {
            throw new IllegalStateException("formatting embedded broker storage in " + dataDir + " failed (" + rc + "): " + output);
        }
        LOG.info("formatted embedded broker storage in {} (cluster {}): {}", dataDir, clusterId, output);
    }

    private void awaitReady(Duration timeout) {
        Map<String, Object> cfg = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(cfg)) {
            while (true) {
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("embedded broker on " + bootstrapServers() + " not ready after " + timeout, e);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the embedded broker", e);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("embedded broker on " + bootstrapServers() + " has no nodes after " + timeout);
                }
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
