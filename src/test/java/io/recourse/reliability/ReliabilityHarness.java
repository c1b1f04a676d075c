package io.recourse.reliability;

import io.recourse.config.RecourseConfig;
import io.recourse.kit.Topics;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The reliability harness (RELIABILITY.md): a Kafka broker and Recourse, each its own process;
 * a {@link Workload} of Kanban sessions and Office runs published in waves; between waves Recourse
 * is {@code kill -9}ed (state kept, or wiped) and the broker bounced (SIGTERM, SIGKILL); the
 * hostile and planted-secrets corpora replayed; then the {@link Audit} of every topic, the
 * process logs and the {@code /metrics} scrapes.
 *
 * <p>Run the full size with
 * {@code mvn -B verify -Dit.test=ReliabilityIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dreliability.size=full};
 * every {@link Size} field can be overridden with a {@code reliability.*} system property.
 */
public final class ReliabilityHarness {

    /**
     * How big a run is.
     *
     * @param sessions    Kanban sessions (cycling through {@link Workload.KanbanKind})
     * @param runs        Office runs (cycling through {@link Workload.OfficeKind})
     * @param keptKills   {@code kill -9} of Recourse with the state directory kept
     * @param wipedKills  {@code kill -9} with the state directory deleted before the restart
     * @param termBounces broker restarts by SIGTERM
     * @param killBounces broker restarts by SIGKILL
     * @param gapSeconds  seconds between a wave and the next disruption
     * @param settleSeconds how long to wait at most for every chain and run to end
     */
    public record Size(int sessions, int runs, int keptKills, int wipedKills, int termBounces, int killBounces, int gapSeconds,
                       int settleSeconds) {

        /** The CI size ({@code ReliabilityIT}). */
        public static Size reduced() {
            return new Size(240, 30, 1, 1, 1, 0, 4, 120);
        }

        /** The documented full size. */
        public static Size full() {
            return new Size(3000, 300, 3, 2, 1, 1, 10, 300);
        }

        /** {@code reliability.size} ({@code reduced}, {@code full}), each field overridable by {@code reliability.<field>}. */
        public static Size fromSystemProperties() {
            Size b = "full".equals(System.getProperty("reliability.size")) ? full() : reduced();
            return new Size(i("sessions", b.sessions), i("runs", b.runs), i("keptKills", b.keptKills), i("wipedKills", b.wipedKills),
                    i("termBounces", b.termBounces), i("killBounces", b.killBounces), i("gapSeconds", b.gapSeconds),
                    i("settleSeconds", b.settleSeconds));
        }

        private static int i(String name, int d) {
            return Integer.parseInt(System.getProperty("reliability." + name, String.valueOf(d)));
        }
    }

    /** The outcome: violations, figures, and the event log. */
    public static final class Report {
        public final List<String> events = Collections.synchronizedList(new ArrayList<>());
        Audit.Result audit;
        final List<String> harnessViolations = new ArrayList<>();
        Duration total;
        String finalHealth;

        public List<String> violations() {
            List<String> out = new ArrayList<>(harnessViolations);
            if (audit != null) {
                audit.violations.forEach(v -> out.add(v.toString()));
            }
            return out;
        }

        public String summary() {
            StringBuilder b = new StringBuilder();
            events.forEach(e -> b.append("  ").append(e).append('\n'));
            if (audit != null) {
                b.append("records per topic:\n");
                audit.recordsPerTopic.forEach((t, n) -> b.append("  ").append(t).append(' ').append(n).append('\n'));
                b.append("kanban final states (kind status/reason: sessions):\n");
                audit.kanbanFinal.forEach((k, n) -> b.append("  ").append(k).append(": ").append(n).append('\n'));
                b.append("office final states (kind status parks: runs):\n");
                audit.officeFinal.forEach((k, n) -> b.append("  ").append(k).append(": ").append(n).append('\n'));
                b.append("hostile corpus:\n");
                audit.notes.forEach(n -> b.append("  ").append(n).append('\n'));
                b.append("planted secrets kept verbatim by design (DESIGN §9 ids ").append(Audit.VERBATIM_IDS).append("): ")
                        .append(audit.keptVerbatim.values().stream().mapToLong(Long::longValue).sum()).append(" record(s)\n");
                audit.keptVerbatim.forEach((k, n) -> b.append("  ").append(k).append(": ").append(n).append('\n'));
                b.append("RetryCommands superseded by the dispatcher (owner had not yet seen the newer prompt): ")
                        .append(audit.supersededByDispatcher).append(audit.supersededByDispatcher == 0 ? "" : ", worst lag "
                                + audit.worstLagMs + " ms: " + audit.worstLag).append('\n');
                b.append("violations per check: ").append(audit.byCheck()).append('\n');
            }
            b.append("final health: ").append(finalHealth).append(", total ").append(total == null ? "?" : total.toSeconds() + " s\n");
            List<String> v = violations();
            b.append(v.size()).append(" violation(s)").append(v.isEmpty() ? "" : ":").append('\n');
            v.stream().limit(300).forEach(x -> b.append("  ").append(Audit.abbreviate(x, 600)).append('\n'));
            if (v.size() > 300) {
                b.append("  … ").append(v.size() - 300).append(" more\n");
            }
            return b.toString();
        }
    }

    private static final String APP_ID = "recourse-reliability";

    private final Size size;
    private final Path dir;
    private final PrintStream log;
    private final Report report = new Report();
    private final long t0 = System.nanoTime();

    public ReliabilityHarness(Size size, Path dir, PrintStream log) {
        this.size = size;
        this.dir = dir;
        this.log = log;
    }

    private void event(String s) {
        String line = String.format(Locale.ROOT, "+%5.1fs %s", (System.nanoTime() - t0) / 1e9, s);
        report.events.add(line);
        log.println(line);
        log.flush();
    }

    /** Runs the whole scenario and returns its report (violations are in the report, not thrown). */
    public Report run() throws Exception {
        String cp = Ports.mainClassPath();
        Topics topics = Topics.from(RecourseConfig.defaults());
        List<Corpora.Secret> secrets = Corpora.secrets();
        List<Corpora.Hostile> hostile = Corpora.hostile();
        List<String> scrapes = new ArrayList<>();
        event("size " + size + ", dir " + dir);
        BrokerProcess broker = new BrokerProcess(dir.resolve("broker"), cp);
        RecourseProcess recourse = null;
        try {
            broker.start();
            event("broker process up on " + broker.bootstrapServers());
            recourse = new RecourseProcess(dir.resolve("recourse"), cp, broker.bootstrapServers(), Map.of(
                    RecourseConfig.TOPIC_PARTITIONS, "2", RecourseConfig.OWNER_PARTITIONS, "2",
                    "application.id", APP_ID));
            Duration up = recourse.start(Duration.ofMinutes(3));
            event("Recourse process RUNNING after " + up.toMillis() + " ms");
            broker.awaitLeaders(Duration.ofSeconds(60));
            Audit audit = new Audit(topics, APP_ID);
            try (Admin admin = broker.admin(); TopicTap tap = new TopicTap(broker.bootstrapServers(), audit.topicNames(admin));
                 Workload w = new Workload(broker.bootstrapServers(), topics).start()) {
                w.publishRouteConfig();
                awaitRecords(admin, broker.bootstrapServers(), topics.routeConfigValidated().name(), 1, Duration.ofSeconds(60));
                event("route configuration validated");
                List<String> disruptions = new ArrayList<>();
                for (int i = 0; i < Math.max(size.keptKills(), size.wipedKills()); i++) {
                    if (i < size.keptKills()) {
                        disruptions.add("kill");
                    }
                    if (i < size.wipedKills()) {
                        disruptions.add("kill+wipe");
                    }
                }
                int bounceAt = 1;
                for (int i = 0; i < size.termBounces(); i++) {
                    disruptions.add(Math.min(bounceAt, disruptions.size()), "broker-sigterm");
                    bounceAt += 3;
                }
                for (int i = 0; i < size.killBounces(); i++) {
                    disruptions.add(Math.min(bounceAt, disruptions.size()), "broker-sigkill");
                    bounceAt += 3;
                }
                int waves = disruptions.size() + 1;
                int session = 0;
                int run = 0;
                int secretIndex = 0;
                for (int wave = 0; wave < waves; wave++) {
                    int sessionsEnd = (int) ((long) size.sessions() * (wave + 1) / waves);
                    int runsEnd = (int) ((long) size.runs() * (wave + 1) / waves);
                    Workload.KanbanKind[] kk = Workload.KanbanKind.values();
                    Workload.OfficeKind[] ok = Workload.OfficeKind.values();
                    for (; session < sessionsEnd; session++) {
                        w.beginKanban(String.format(Locale.ROOT, "rel-k-%05d", session), kk[session % kk.length], null);
                    }
                    for (; run < runsEnd; run++) {
                        Corpora.Secret s = run < secrets.size() ? secrets.get(run) : null;
                        w.beginOffice(String.format(Locale.ROOT, "rel-o-%04d", run), ok[run % ok.length], s);
                    }
                    if (wave == 0) {
                        for (; secretIndex < secrets.size(); secretIndex++) {
                            Corpora.Secret s = secrets.get(secretIndex);
                            // the secrets ride on retried, cancelled and not-replay-safe sessions
                            Workload.KanbanKind kind = List.of(Workload.KanbanKind.RETRY_OK, Workload.KanbanKind.CANCEL,
                                    Workload.KanbanKind.NOT_REPLAY_SAFE).get(secretIndex % 3);
                            w.beginKanban(String.format(Locale.ROOT, "rel-secret-%02d", secretIndex), kind, s);
                        }
                    }
                    if (wave == Math.min(1, waves - 1)) {
                        replayHostile(w, topics, hostile);
                    }
                    w.flush();
                    event("wave " + (wave + 1) + "/" + waves + " published (" + session + " sessions, " + run + " runs); "
                            + w.progress());
                    if (wave < disruptions.size()) {
                        Thread.sleep(size.gapSeconds() * 1000L);
                        scrape(recourse, scrapes);
                        disrupt(disruptions.get(wave), broker, recourse, w);
                    }
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(size.settleSeconds());
                long nextProgress = 0;
                while (!w.settled() && System.nanoTime() < deadline && w.failure() == null) {
                    if (System.nanoTime() > nextProgress) {
                        event("settling: " + w.progress());
                        nextProgress = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
                    }
                    checkAlive(recourse);
                    Thread.sleep(500);
                }
                event((w.settled() ? "settled: " : "settle timeout: ") + w.progress());
                if (w.failure() != null) {
                    report.harnessViolations.add("[harness] the dispatcher failed: " + w.failure());
                }
                Thread.sleep(3000); // the last commits
                w.flush();
                scrape(recourse, scrapes);
                report.finalHealth = recourse.alive() ? recourse.health() : "process exited";
                if (!"RUNNING".equals(report.finalHealth)) {
                    report.harnessViolations.add("[ends-running] Recourse at the end: " + report.finalHealth);
                }
                Path metrics = dir.resolve("metrics-final.txt");
                if (!scrapes.isEmpty() && scrapes.get(scrapes.size() - 1) != null) {
                    Files.writeString(metrics, scrapes.get(scrapes.size() - 1), StandardCharsets.UTF_8);
                }
                List<Path> logs = new ArrayList<>(recourse.logs());
                for (Path l : logs) {
                    String text = Files.readString(l, StandardCharsets.ISO_8859_1);
                    if (text.contains("stream thread died")) {
                        report.harnessViolations.add("[ends-running] a stream thread died, see " + l);
                    }
                }
                event("auditing the topics");
                List<String> names = audit.topicNames(admin);
                report.audit = audit.check(tap.drain(), names, w.ledger, secrets, logs, scrapes);
                event("audit done: " + report.audit.violations.size() + " violation(s), " + report.audit.dlq + " dead letters");
            }
        } finally {
            if (recourse != null) {
                recourse.terminate();
            }
            broker.terminate();
            report.total = Duration.ofNanos(System.nanoTime() - t0);
        }
        return report;
    }

    private void checkAlive(RecourseProcess recourse) throws Exception {
        if (!recourse.alive()) {
            report.harnessViolations.add("[ends-running] Recourse exited unexpectedly; see " + recourse.logs().get(recourse.logs().size() - 1));
            event("Recourse exited unexpectedly: restarting");
            recourse.start(Duration.ofMinutes(3));
        }
    }

    private void scrape(RecourseProcess recourse, List<String> scrapes) {
        String s = recourse.scrape();
        if (s != null) {
            scrapes.add(s);
        }
    }

    private void disrupt(String what, BrokerProcess broker, RecourseProcess recourse, Workload w) throws Exception {
        long t = System.nanoTime();
        switch (what) {
            case "kill", "kill+wipe" -> {
                checkAlive(recourse);
                recourse.kill();
                if (what.equals("kill+wipe")) {
                    recourse.wipeState();
                }
                Duration up = recourse.start(Duration.ofMinutes(3));
                event("kill -9 Recourse" + (what.equals("kill+wipe") ? ", state dir wiped" : ", state dir kept")
                        + "; RUNNING again after " + up.toMillis() + " ms; " + w.progress());
            }
            case "broker-sigterm", "broker-sigkill" -> {
                w.pause();
                if (what.equals("broker-sigterm")) {
                    broker.terminate();
                } else {
                    broker.kill();
                }
                long down = System.nanoTime();
                broker.start();
                broker.awaitLeaders(Duration.ofSeconds(90));
                w.resume();
                event("broker " + (what.equals("broker-sigterm") ? "SIGTERM" : "SIGKILL") + " and restart: stopped in "
                        + TimeUnit.NANOSECONDS.toMillis(down - t) + " ms, leaders after "
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - down) + " ms; Recourse "
                        + (recourse.alive() ? recourse.health() : "EXITED"));
                Thread.sleep(2000);
                checkAlive(recourse);
            }
            default -> throw new IllegalArgumentException(what);
        }
    }

    private void replayHostile(Workload w, Topics topics, List<Corpora.Hostile> hostile) throws Exception {
        Map<String, String> names = Map.of("agent-frames", topics.agentFrames().name(),
                "session-controls", topics.sessionControls().name(),
                "kanban-acks", topics.kanbanDispatchAcks().name(),
                "run-requests", topics.officeRunRequests().name(),
                "run-controls", topics.officeRunControls().name(),
                "office-acks", topics.officeDispatchAcks().name(),
                "route-config", topics.routeConfig().name());
        for (Corpora.Hostile h : hostile) {
            String topic = names.get(h.topic());
            if (topic == null) {
                throw new IllegalStateException("hostile record " + h.id() + ": unknown topic " + h.topic());
            }
            RecordMetadata m = w.sendRaw(topic, h.key(), h.value());
            w.ledger.hostile.put(h.id(), new String[] {topic, String.valueOf(m.partition()), String.valueOf(m.offset()),
                    h.expectDlq() ? "dlq" : "any", h.note()});
        }
        event("hostile corpus replayed: " + hostile.size() + " records");
    }

    private static void awaitRecords(Admin admin, String bootstrap, String topic, long n, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            var parts = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().stream()
                    .map(p -> new org.apache.kafka.common.TopicPartition(topic, p.partition())).toList();
            var offsets = admin.listOffsets(parts.stream().collect(java.util.stream.Collectors.toMap(p -> p,
                    p -> org.apache.kafka.clients.admin.OffsetSpec.latest()))).all().get();
            long total = offsets.values().stream().mapToLong(o -> o.offset()).sum();
            if (total >= n) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(topic + " has " + total + " records after " + timeout);
            }
            Thread.sleep(200);
        }
    }

    /** Runs the harness from the command line: {@code reliability.*} system properties give the size; exit 1 on a violation. */
    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("recourse-reliability");
        Report r = new ReliabilityHarness(Size.fromSystemProperties(), dir, System.out).run();
        System.out.println(r.summary());
        System.exit(r.violations().isEmpty() ? 0 : 1);
    }
}
