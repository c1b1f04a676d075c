package io.recourse.reliability;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;

/**
 * A single-node KRaft Kafka broker (combined broker + controller, loopback only) run as its own
 * process from the project's broker jars: {@code java -cp <class path> kafka.Kafka server.properties}.
 * The properties mirror {@link io.recourse.runtime.EmbeddedKafkaBroker}'s (one replica, min ISR 1
 * for the offsets and transaction-state topics); the ports are fixed at construction so a restart
 * on the same log directory is the same broker. {@link #terminate()} sends SIGTERM (controlled
 * shutdown), {@link #kill()} SIGKILL (log recovery on the next start).
 */
final class BrokerProcess implements AutoCloseable {

    private static final String HOST = "127.0.0.1";

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final String classPath;
    private Process process;
    private int starts;

    BrokerProcess(Path dir, String classPath) throws IOException {
        this.dir = dir;
        this.classPath = classPath;
        this.port = Ports.free();
        int c;
        do {
            c = Ports.free();
        } while (c == port);
        this.controllerPort = c;
        Files.createDirectories(dir);
    }

    String bootstrapServers() {
        return HOST + ":" + port;
    }

    Path logFile(int start) {
        return dir.resolve("broker-" + start + ".log");
    }

    /** Formats the log directory on the first start, starts the process, waits until it answers (60 s). */
    synchronized void start() throws Exception {
        Path config = dir.resolve("server.properties");
        if (!Files.exists(config)) {
            try (Writer w = Files.newBufferedWriter(config, StandardCharsets.UTF_8)) {
                properties().store(w, "reliability harness broker");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int rc;
            try (PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8)) {
                rc = StorageTool.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c", config.toString(),
                        "--standalone"}, ps);
            }
            if (rc != 0) {
                throw new IllegalStateException("kafka-storage format failed: " + out.toString(StandardCharsets.UTF_8));
            }
        }
        starts++;
        List<String> cmd = new ArrayList<>(List.of(Ports.java(), "-Xms128m", "-Xmx512m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", classPath, "-Dlogback.configurationFile=" + logback(), "kafka.Kafka",
                config.toString()));
        process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(logFile(starts).toFile()).start();
        Process started = process;
        // a harness JVM that dies (or is stopped) takes its child processes with it
        Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly));
        awaitReady(Duration.ofSeconds(90));
    }

    private String logback() throws IOException {
        Path f = dir.resolve("logback-broker.xml");
        if (!Files.exists(f)) {
            Files.writeString(f, """
                    <configuration>
                      <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                        <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n</pattern></encoder>
                      </appender>
                      <root level="WARN"><appender-ref ref="OUT"/></root>
                    </configuration>
                    """);
        }
        return f.toString();
    }

    private Properties properties() {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.bootstrap.servers", HOST + ":" + controllerPort);
        p.put("listeners", "PLAINTEXT://" + HOST + ":" + port + ",CONTROLLER://" + HOST + ":" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://" + HOST + ":" + port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", dir.resolve("kraft-logs").toString());
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
        return p;
    }

    private void awaitReady(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!listening()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("broker exited (" + process.exitValue() + "); see " + logFile(starts));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("broker not listening after " + timeout + "; see " + logFile(starts));
            }
            Thread.sleep(200);
        }
        try (Admin admin = admin()) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("broker exited (" + process.exitValue() + "); see " + logFile(starts));
                }
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (Exception e) {
                    // not up yet
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("broker not ready after " + timeout + "; see " + logFile(starts));
                }
                Thread.sleep(200);
            }
        }
    }

    private boolean listening() {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress(HOST, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Waits until every partition of every non-internal topic has a leader (a producer started
     * earlier may otherwise see a transient error after a restart).
     */
    void awaitLeaders(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = admin()) {
            while (true) {
                try {
                    Set<String> names = admin.listTopics().names().get(5, TimeUnit.SECONDS);
                    Map<String, TopicDescription> all = admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS);
                    boolean ok = all.values().stream().flatMap(d -> d.partitions().stream())
                            .map(TopicPartitionInfo::leader).allMatch(l -> l != null && l.id() >= 0);
                    if (ok) {
                        return;
                    }
                } catch (Exception e) {
                    // retry
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("partitions without a leader after " + timeout);
                }
                Thread.sleep(200);
            }
        }
    }

    Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000));
    }

    /** SIGTERM, then waits for the controlled shutdown (up to 60 s, then SIGKILL). */
    synchronized void terminate() throws InterruptedException {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    /** SIGKILL. */
    synchronized void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly().waitFor();
        }
    }

    @Override
    public void close() throws InterruptedException {
        terminate();
    }
}
