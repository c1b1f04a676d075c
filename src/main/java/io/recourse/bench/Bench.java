package io.recourse.bench;

import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.EvidenceCounters;
import io.recourse.evidence.streams.EvidenceTopology;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.runtime.EmbeddedKafkaBroker;
import io.recourse.runtime.PartitionLeaders;
import io.recourse.runtime.RecourseRunner;
import io.recourse.topology.RecourseTopology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The benchmark engine behind {@code recourse bench}: runs {@link Scenario}s on one
 * broker — the embedded one by default, or the cluster of the given configuration — with the
 * {@link Workload}, and measures each end to end.
 *
 * <p>One run of a scenario: fresh topics (every name prefixed with the run id), a fresh
 * {@code application.id} and state directory; {@code instances} Kafka Streams instances through
 * {@link RecourseRunner} with {@code commit.interval.ms=100}; an observer consumer
 * ({@code read_committed}) on the outputs; the producer sends the workload (paced when the
 * scenario has a rate), then one <em>sentinel</em> failing turn per input partition. The run
 * ends when the sentinels' outputs are readable (pass-through: their copies; full: their
 * Classifications) — processing within a partition is in order, so everything produced before
 * is then processed and committed. A topology without a classifications sink (the ingress-only
 * stage) ends when the group's committed offsets reach the end of the frames topic instead.
 * State is measured on the changelogs (latest value per key) and on RocksDB's own size metrics.
 * Afterwards every topic of the run and its state directory are deleted.
 */
public final class Bench implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Bench.class);
    /** Length of the paced latency scenario's traffic, seconds (its session count is scaled to fit). */
    static final int PACED_SECONDS = 60;

    /**
     * What to run.
     *
     * @param sessions        sessions per run (concurrency min(sessions, 100k))
     * @param turnsPerSession turns per session
     * @param seed            workload seed
     * @param runs            runs per scenario (the report gives medians)
     * @param guarantees      processing guarantees to compare
     * @param threads         stream-thread counts to compare (full topology, exactly-once when measured)
     * @param instances       instance counts to compare (likewise)
     * @param latency         whether to run the paced latency scenario at half the full topology's rate
     * @param openTurns       whether full single-instance runs also measure state per open turn
     * @param warmup          whether to run both topologies once on half of the sessions first, unreported
     *                        (the JIT compiles the hot paths before the measured runs)
     * @param base            configuration: {@code bootstrap.servers} selects an external cluster, Kafka
     *                        client keys (security) pass through
     * @param workDir         where state directories and the embedded broker's data go (deleted on close)
     * @param topologies      which topologies to run (both by default; only {@link Scenario.Kind#FULL} for a
     *                        state-and-memory point such as 1,000,000 sessions); thread, instance and latency
     *                        scenarios need {@link Scenario.Kind#FULL}
     * @param workload        the workload's mix: {@link Workload.Mix#UNIFORM} (the default) or
     *                        {@link Workload.Mix#REALISTIC} (duty cycles and Office runs, with the scripted
     *                        Office dispatcher on full runs)
     * @throws IllegalArgumentException when {@code topologies} is empty
     */
    public record Settings(int sessions, int turnsPerSession, long seed, int runs, List<String> guarantees,
                           List<Integer> threads, List<Integer> instances, boolean latency, boolean openTurns,
                           boolean warmup, RecourseConfig base, Path workDir, List<Scenario.Kind> topologies,
                           Workload.Mix workload) {
        public Settings {
            topologies = List.copyOf(topologies);
            if (topologies.isEmpty()) {
                throw new IllegalArgumentException("at least one topology to run is required");
            }
            if (workload == null) {
                throw new IllegalArgumentException("a workload mix is required");
            }
        }

        /** The uniform workload. */
        public Settings(int sessions, int turnsPerSession, long seed, int runs, List<String> guarantees,
                        List<Integer> threads, List<Integer> instances, boolean latency, boolean openTurns,
                        boolean warmup, RecourseConfig base, Path workDir, List<Scenario.Kind> topologies) {
            this(sessions, turnsPerSession, seed, runs, guarantees, threads, instances, latency, openTurns, warmup, base,
                    workDir, topologies, Workload.Mix.UNIFORM);
        }

        /** Both topologies, the default. */
        public Settings(int sessions, int turnsPerSession, long seed, int runs, List<String> guarantees,
                        List<Integer> threads, List<Integer> instances, boolean latency, boolean openTurns,
                        boolean warmup, RecourseConfig base, Path workDir) {
            this(sessions, turnsPerSession, seed, runs, guarantees, threads, instances, latency, openTurns, warmup, base,
                    workDir, List.of(Scenario.Kind.values()), Workload.Mix.UNIFORM);
        }

        boolean runsFull() {
            return topologies.contains(Scenario.Kind.FULL);
        }
    }

    private final Settings settings;
    private EmbeddedKafkaBroker broker;
    private final String bootstrap;
    private final AtomicLong runCounter = new AtomicLong();
    private PurgeResult abandoned;
    private final long stamp = System.currentTimeMillis() % 1_000_000;

    private Bench(Settings settings) {
        this.settings = settings;
        if (settings.base().embedded()) {
            broker = new EmbeddedKafkaBroker(settings.workDir().resolve("broker")).start();
            bootstrap = broker.bootstrapServers();
        } else {
            bootstrap = settings.base().bootstrapServers().orElseThrow();
        }
    }

    /** Starts the embedded broker (unless {@code settings.base()} names a cluster). */
    public static Bench start(Settings settings) {
        return new Bench(settings);
    }

    public String bootstrapServers() {
        return bootstrap;
    }

    /**
     * Runs the whole matrix: per run, pass-through and full at every guarantee (1 thread, 1
     * instance), then both at exactly-once (or the only guarantee given) with every other thread
     * and instance count (so each full scenario has a pass-through at the same scaling to compare
     * with); then — when {@code openTurns} — the abandoned-turn phase once, and finally — when
     * {@code latency} — the full topology paced at half its median maximum rate.
     */
    public List<RunResult> runAll(Consumer<RunResult> progress) {
        List<RunResult> results = new ArrayList<>();
        String scaling = settings.guarantees().contains("exactly_once_v2") ? "exactly_once_v2" : settings.guarantees().get(0);
        if (settings.warmup()) {
            // half the sessions: long enough for C2 to finish compiling the hot paths of both topologies
            int few = Math.max(50, settings.sessions() / 2);
            for (Scenario.Kind kind : settings.topologies()) {
                RunResult w = run(new Scenario(kind, scaling, 1, 1, 0, false), few);
                LOG.info("warm-up (not reported): {}", BenchReport.line(w));
            }
        }
        for (int r = 0; r < settings.runs(); r++) {
            for (String g : settings.guarantees()) {
                for (Scenario.Kind kind : settings.topologies()) {
                    Scenario s = new Scenario(kind, g, 1, 1, 0, kind == Scenario.Kind.FULL && settings.openTurns());
                    results.add(report(progress, run(s)));
                }
            }
            for (int t : settings.threads()) {
                if (t != 1 && settings.runsFull()) {
                    for (Scenario.Kind kind : settings.topologies()) {
                        results.add(report(progress, run(new Scenario(kind, scaling, t, 1, 0, false))));
                    }
                }
            }
            for (int i : settings.instances()) {
                if (i != 1 && settings.runsFull()) {
                    for (Scenario.Kind kind : settings.topologies()) {
                        results.add(report(progress, run(new Scenario(kind, scaling, 1, i, 0, false))));
                    }
                }
            }
        }
        if (settings.openTurns() && settings.runsFull()) {
            abandoned = abandoned(Math.min(settings.sessions(), ABANDONED_SESSIONS), scaling);
        }
        if (settings.latency() && settings.runsFull()) {
            double max = median(results.stream()
                    .filter(x -> x.scenario().equals(new Scenario(Scenario.Kind.FULL, scaling, 1, 1, 0, settings.openTurns())))
                    .filter(x -> !x.timedOut())
                    .mapToDouble(RunResult::framesPerSecond).toArray());
            if (!Double.isNaN(max)) {
                // about PACED_SECONDS of traffic at half the maximum rate: enough samples, bounded time
                long records = results.get(0).records();
                int sessions = (int) Math.min(settings.sessions(), Math.max(50,
                        (long) (settings.sessions() * (max / 2 * PACED_SECONDS) / Math.max(1, records))));
                for (int r = 0; r < settings.runs(); r++) {
                    results.add(report(progress, run(new Scenario(Scenario.Kind.FULL, scaling, 1, 1, max / 2, false), sessions)));
                }
            }
        }
        return results;
    }

    private static RunResult report(Consumer<RunResult> progress, RunResult r) {
        progress.accept(r);
        return r;
    }

    /** Sessions of the abandoned-turn phase (at most; fewer when the run has fewer). */
    static final int ABANDONED_SESSIONS = 2_000;
    /** The idle bound and retention the abandoned-turn phase runs with, instead of 2 h and 6 h (DESIGN §4). */
    static final Duration ABANDONED_IDLE = Duration.ofSeconds(4);
    static final Duration ABANDONED_RETENTION = Duration.ofSeconds(8);

    /** The abandoned-turn phase's result, when {@link #runAll} ran it. */
    public Optional<PurgeResult> abandoned() {
        return Optional.ofNullable(abandoned);
    }

    /**
     * The abandoned-turn phase: a fresh full topology with a short idle bound
     * ({@link #ABANDONED_IDLE}) and retention ({@link #ABANDONED_RETENTION}); every one of
     * {@code sessions} sessions opens one turn ({@link Workload#abandonedTurn}: a prompt and a
     * provider's HTTP 500, no terminal frame) and goes silent. Once processed, the turns and their signals are counted through interactive
     * queries; after the idle bound one frame per input partition advances stream time (timestamps
     * are the broker's LogAppendTime, so this waits in real time) and the increase of
     * {@code evidence_expired} is read; after the retention another round of such frames, and the
     * sessions' turn-store entries and readable signals are counted again. Everything the phase
     * creates is deleted.
     *
     * @param sessions  abandoned sessions (≥ 1)
     * @param guarantee the processing guarantee to run with
     * @return counts before and after; {@link PurgeResult#purgedAndCounted()} says whether all was purged and counted
     */
    public PurgeResult abandoned(int sessions, String guarantee) {
        String id = "bench-" + stamp + "-" + runCounter.incrementAndGet() + "-abandoned";
        Path stateRoot = settings.workDir().resolve(id);
        Scenario scenario = new Scenario(Scenario.Kind.FULL, guarantee, 1, 1, 0, false);
        RecourseConfig config = runConfig(id, scenario, stateRoot)
                .with(RecourseConfig.EVIDENCE_IDLE_MS, String.valueOf(ABANDONED_IDLE.toMillis()))
                .with(RecourseConfig.EVIDENCE_RETENTION_MS, String.valueOf(ABANDONED_RETENTION.toMillis()))
                .with(RecourseConfig.PUNCTUATION_INTERVAL_MS, "200");
        String frames = config.topicName(RecourseConfig.TOPIC_AGENT_FRAMES);
        String prefix = id + "-a";
        Map<String, Object> clientProps = config.clientProperties(bootstrap);
        long t0 = System.nanoTime();
        try (RecourseRunner runner = new RecourseRunner(config).start();
             Admin admin = Admin.create(clientProps);
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(BenchSupport.producerProps(clientProps))) {
            BenchSupport.awaitAllRunning(List.of(runner));
            PartitionLeaders.await(admin, t -> t.startsWith(id), Duration.ofSeconds(60));
            int partitions = producer.partitionsFor(frames).size();
            long records = 0;
            for (int i = 0; i < sessions; i++) {
                for (Workload.Record r : Workload.abandonedTurn(prefix + "-" + i, 1, Instant.now())) {
                    producer.send(new ProducerRecord<>(frames, r.key(), r.value()));
                    records++;
                }
            }
            producer.flush();
            Instant lastSent = Instant.now();
            Duration timeout = Duration.ofSeconds(Math.max(120, records / 500));
            if (!BenchSupport.awaitCommitted(admin, id, frames, timeout, null)) {
                throw new IllegalStateException("abandoned-turn phase: frames not processed within " + timeout);
            }
            long turnsBefore = countTurns(runner, prefix);
            long signalsBefore = countSignals(runner, prefix);
            long bytesBefore = BenchSupport.changelogBytes(admin, clientProps, id).getOrDefault(EvidenceTopology.TURN_STORE, 0L);
            double expiredBefore = runner.metrics().meters().evidence().count(EvidenceCounters.EXPIRED);

            advanceStreamTimePast(producer, frames, partitions, id, 1, lastSent.plus(ABANDONED_IDLE));
            BenchSupport.awaitCommitted(admin, id, frames, timeout, null);
            long expired = Math.round(runner.metrics().meters().evidence().count(EvidenceCounters.EXPIRED) - expiredBefore);

            advanceStreamTimePast(producer, frames, partitions, id, 2, Instant.now().plus(ABANDONED_RETENTION));
            BenchSupport.awaitCommitted(admin, id, frames, timeout, null);
            long turnsAfter = countTurns(runner, prefix);
            long signalsAfter = countSignals(runner, prefix);
            long bytesAfter = BenchSupport.changelogBytes(admin, clientProps, id).getOrDefault(EvidenceTopology.TURN_STORE, 0L);
            PurgeResult r = new PurgeResult(sessions, ABANDONED_IDLE.toMillis(), ABANDONED_RETENTION.toMillis(), turnsBefore,
                    signalsBefore, bytesBefore, expired, turnsAfter, signalsAfter, bytesAfter, (System.nanoTime() - t0) / 1e9);
            LOG.info("abandoned turns: {}", r);
            return r;
        } catch (ExecutionException e) {
            throw new IllegalStateException("abandoned-turn phase: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            cleanUp(clientProps, id, stateRoot);
        }
    }

    /**
     * Waits until {@code until} (record timestamps are the broker's append time), then sends one
     * closed turn on every partition so each task's stream time passes it.
     */
    private static void advanceStreamTimePast(KafkaProducer<byte[], byte[]> producer, String topic, int partitions, String id,
                                              int round, Instant until) throws InterruptedException {
        long wait = Duration.between(Instant.now(), until).toMillis() + 500;
        if (wait > 0) {
            Thread.sleep(wait); // stream time follows LogAppendTime: the phase has to let real time pass
        }
        for (int p = 0; p < partitions; p++) {
            for (Workload.Record r : Workload.sentinelTurn(id + "-tick-" + round + "-" + p, 1, Instant.now())) {
                producer.send(new ProducerRecord<>(topic, p, r.key(), r.value()));
            }
        }
        producer.flush();
    }

    private static long countTurns(RecourseRunner runner, String sessionPrefix) {
        ReadOnlyKeyValueStore<String, Object> turns = runner.streams().store(
                StoreQueryParameters.fromNameAndType(EvidenceTopology.TURN_STORE, QueryableStoreTypes.keyValueStore()));
        long n = 0;
        try (KeyValueIterator<String, Object> it = turns.all()) {
            while (it.hasNext()) {
                n += it.next().key.startsWith(sessionPrefix + "-") ? 1 : 0;
            }
        }
        return n;
    }

    private static long countSignals(RecourseRunner runner, String sessionPrefix) {
        ReadOnlyWindowStore<String, Object> signals = runner.streams().store(
                StoreQueryParameters.fromNameAndType(EvidenceTopology.SIGNAL_STORE, QueryableStoreTypes.windowStore()));
        long n = 0;
        try (KeyValueIterator<Windowed<String>, Object> it = signals.fetchAll(Instant.EPOCH, Instant.now().plus(Duration.ofDays(1)))) {
            while (it.hasNext()) {
                n += it.next().key.key().startsWith(sessionPrefix + "-") ? 1 : 0;
            }
        }
        return n;
    }

    /** One run of {@code scenario} with the configured number of sessions (see the class comment). */
    public RunResult run(Scenario scenario) {
        return run(scenario, settings.sessions());
    }

    /** One run of {@code scenario} with {@code sessions} sessions. */
    public RunResult run(Scenario scenario, int sessions) {
        String id = "bench-" + stamp + "-" + runCounter.incrementAndGet() + "-"
                + (scenario.topology() == Scenario.Kind.FULL ? "full" : "pass") + "-" + scenario.shortGuarantee();
        Path stateRoot = settings.workDir().resolve(id);
        RecourseConfig config = runConfig(id, scenario, stateRoot);
        String frames = config.topicName(RecourseConfig.TOPIC_AGENT_FRAMES);
        String passOut = id + ".pass-through-out";
        Function<RecourseConfig, Topology> builder = scenario.topology() == Scenario.Kind.FULL
                ? c -> RecourseTopology.build(c, RecourseTopology.Options.with(RecourseMeters.global()))
                : c -> passThrough(frames, passOut);
        String description = builder.apply(config).describe().toString();
        String classifications = config.topicName(RecourseConfig.TOPIC_CLASSIFICATIONS);
        String unclassified = config.topicName(RecourseConfig.TOPIC_UNCLASSIFIED_EVIDENCE);
        String recoveryState = config.topicName(RecourseConfig.TOPIC_KANBAN_RECOVERY_STATE);
        boolean classifies = description.contains("topic: " + classifications) || description.contains(classifications);
        boolean recovers = description.contains(recoveryState);

        List<RecourseRunner> runners = new ArrayList<>();
        Map<String, Object> clientProps = config.clientProperties(bootstrap);
        try (Admin admin = Admin.create(clientProps)) {
            if (scenario.topology() == Scenario.Kind.PASS_THROUGH) {
                admin.createTopics(List.of(new NewTopic(passOut, Optional.of(config.topicPartitions()), Optional.of(config.topicReplicationFactor()))))
                        .all().get();
            }
            gc();
            long heapBefore = heapUsed();
            for (int i = 0; i < scenario.instances(); i++) {
                RecourseConfig c = config.with(RecourseConfig.STATE_DIR, stateRoot.resolve("instance-" + i).toString());
                runners.add(new RecourseRunner(c, builder).start());
            }
            BenchSupport.awaitAllRunning(runners);
            // the idempotent producers (ours and Streams') must not start on partitions still without a leader
            PartitionLeaders.await(admin, t -> t.startsWith(id), Duration.ofSeconds(60));
            boolean office = settings.workload() == Workload.Mix.REALISTIC && scenario.topology() == Scenario.Kind.FULL;
            if (office) {
                BenchSupport.publishRouteConfigs(clientProps, config, runners.get(0), BenchOffice.officeRouteConfigs());
            }

            List<String> outputs = scenario.topology() == Scenario.Kind.PASS_THROUGH ? List.of(passOut)
                    : Stream.of(classifications, unclassified, recoveryState).toList();
            try (BenchObserver observer = new BenchObserver(clientProps, outputs, scenario.topology(), classifications, unclassified,
                         recoveryState);
                 KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(BenchSupport.producerProps(clientProps));
                 BenchDispatcher dispatcher = office ? new BenchDispatcher(clientProps, config, settings.seed()).start() : null) {
                observer.start();
                int partitions = producer.partitionsFor(frames).size();
                Workload.Options options = Workload.Options.of(settings.workload(), settings.seed(), sessions)
                        .withTurnsPerSession(settings.turnsPerSession()).withSessionPrefix(id).withBase(Instant.now());

                // (1) the workload, then the sentinels; wait until their outputs are readable
                long t0 = System.nanoTime();
                java.util.Set<String> runIds = new java.util.HashSet<>();
                long records = BenchSupport.produce(producer, frames,
                        office ? config.topicName(RecourseConfig.TOPIC_OFFICE_RUN_REQUESTS) : null, new Workload(options),
                        scenario.rate(), observer, t0, runIds);
                BenchSupport.sendSentinels(producer, frames, id, 1, partitions, observer);
                Duration timeout = Duration.ofSeconds(Math.max(120, records / 500));
                boolean done = classifies || scenario.topology() == Scenario.Kind.PASS_THROUGH
                        ? observer.awaitSentinels(partitions, timeout)
                        : BenchSupport.awaitCommitted(admin, id, frames, timeout, observer);
                double seconds = (observer.endNanos() - t0) / 1e9;
                long streamCpu = BenchSupport.streamThreadCpuNanos();
                LOG.info("{}: stream threads' CPU {} ms for {} records: {} µs per record", scenario.label(), streamCpu / 1_000_000,
                        records, String.format(java.util.Locale.ROOT, "%.1f", streamCpu / 1e3 / records));
                if (!done) {
                    LOG.warn("{}: outputs not all seen within {}", scenario.label(), timeout);
                    seconds = timeout.toNanos() / 1e9;
                }
                Latencies cls = observer.classificationLatencies();
                Latencies sch = observer.scheduledLatencies();
                OfficeResult officeResult = null;
                if (dispatcher != null) {
                    // the Office runs go on after the frames (retry delays, the quota reset): wait until they settle
                    boolean settled = dispatcher.awaitSettled(runIds,
                            Duration.ofSeconds(3L * BenchOffice.OFFICE_QUOTA_RESET_SECONDS), timeout);
                    officeResult = dispatcher.result(runIds.size(), t0, settled);
                    LOG.info("{}: Office {}", scenario.label(), officeResult);
                }

                // (2) state after the workload: changelogs, RocksDB, heap, RSS
                Map<String, Long> stores = scenario.topology() == Scenario.Kind.FULL ? BenchSupport.changelogBytes(admin, clientProps, id) : Map.of();
                long storeTotal = stores.values().stream().mapToLong(Long::longValue).sum();
                double rocks = BenchSupport.rocksDbBytes(runners);
                gc();
                double heapDelta = heapUsed() - heapBefore;
                double rss = rssBytes();

                // (3) optionally one open half-turn per session, and the state it adds
                double perOpenTurn = Double.NaN;
                if (scenario.openTurnPhase() && done && !stores.isEmpty()) {
                    observer.resetSentinels();
                    BenchSupport.produce(producer, frames, null, new Workload(options.onlyOpenTurns().clean()), 0, observer,
                            System.nanoTime(), new java.util.HashSet<>());
                    BenchSupport.sendSentinels(producer, frames, id, 2, partitions, observer);
                    if (classifies ? observer.awaitSentinels(partitions, timeout) : BenchSupport.awaitCommitted(admin, id, frames, timeout, observer)) {
                        long after = BenchSupport.changelogBytes(admin, clientProps, id).values().stream().mapToLong(Long::longValue).sum();
                        perOpenTurn = (double) (after - storeTotal) / sessions;
                    }
                }
                return new RunResult(scenario, records, seconds, records / seconds,
                        cls.percentile(50), cls.percentile(99), cls.count(),
                        recovers ? sch.percentile(50) : Double.NaN, recovers ? sch.percentile(99) : Double.NaN, sch.count(),
                        !stores.isEmpty() ? (double) storeTotal / sessions : Double.NaN,
                        perOpenTurn, stores, rocks, heapDelta, rss, loadAverage(), !done, officeResult);
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException(scenario.label() + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            runners.forEach(RecourseRunner::close);
            cleanUp(clientProps, id, stateRoot);
        }
    }

    private RecourseConfig runConfig(String id, Scenario scenario, Path stateRoot) {
        RecourseConfig c = settings.base();
        for (String key : RecourseConfig.topicKeys()) {
            c = c.with(key, id + "." + RecourseConfig.defaultValues().get(key));
        }
        return c.with(RecourseConfig.APPLICATION_ID, id)
                .with(RecourseConfig.STATE_DIR, stateRoot.toString())
                .with(RecourseConfig.PROCESSING_GUARANTEE, scenario.guarantee())
                .with(RecourseConfig.BOOTSTRAP_SERVERS, bootstrap)
                .with(RecourseConfig.TOPICS_CREATE, "true")
                .with("num.stream.threads", String.valueOf(scenario.threads()))
                .with("commit.interval.ms", "100");
    }

    /** The physical limit: every frame copied to {@code output} unchanged, nothing else. */
    public static Topology passThrough(String input, String output) {
        StreamsBuilder b = new StreamsBuilder();
        b.stream(input, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("bench-pass-through-source"))
                .to(output, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("bench-pass-through-sink"));
        return b.build();
    }

    private void cleanUp(Map<String, Object> client, String id, Path stateRoot) {
        try (Admin admin = Admin.create(client)) {
            List<String> mine = admin.listTopics().names().get().stream().filter(t -> t.startsWith(id)).toList();
            admin.deleteTopics(mine).all().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.warn("could not delete the topics of {}: {}", id, e.toString());
        }
        deleteRecursively(stateRoot);
    }

    static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("could not delete {}: {}", root, e.toString());
        }
    }

    private static void gc() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
    }

    private static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** VmRSS of this process from {@code /proc/self/status}, NaN where there is none. */
    static double rssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return Double.NaN;
    }

    /** The 1-minute load average. */
    public static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** Stops the embedded broker and deletes the work directory (its data included). */
    @Override
    public void close() {
        if (broker != null) {
            broker.close();
            broker = null;
        }
        deleteRecursively(settings.workDir());
    }

    /** Medians per scenario, in first-run order. */
    public static Map<Scenario, List<RunResult>> byScenario(Collection<RunResult> results) {
        Map<Scenario, List<RunResult>> out = new LinkedHashMap<>();
        results.forEach(r -> out.computeIfAbsent(r.scenario(), k -> new ArrayList<>()).add(r));
        return out;
    }
}
