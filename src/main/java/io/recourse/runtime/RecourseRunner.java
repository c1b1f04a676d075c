package io.recourse.runtime;

import io.micrometer.core.instrument.Metrics;
import io.recourse.config.RecourseConfig;
import io.recourse.config.TopicSpec;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.kit.Topics;
import io.recourse.topology.RecourseTopology;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Recourse (STYLE.md: the lifecycle apart from the pure topology builder): starts the
 * embedded broker when no {@code bootstrap.servers} is configured, creates absent topics when
 * told to ({@link RecourseConfig#createTopics()}), runs the {@link StartupChecks}, then starts
 * Kafka Streams on {@link RecourseTopology#build} and waits for {@code RUNNING}.
 *
 * <p>Streams is configured on purpose: {@code processing.guarantee} from the configuration
 * (default {@code exactly_once_v2}), the dead-letter deserialization and processing exception
 * handlers (bad input goes to {@code recourse.dlq}, the thread keeps running),
 * {@code ensure.explicit.internal.resource.naming=true}, and a stream-thread exception handler
 * that shuts the client down (exit non-zero) when a stream thread dies. Metrics (DESIGN §10,
 * {@link RecourseMetrics}): the topology records into the runner's Prometheus registry, which also
 * binds Kafka Streams' client metrics. The instance's endpoint is the one given to
 * {@link #withEndpoint}: the CLI's {@code run} and {@code demo} give the HTTP server of
 * {@code io.recourse.http}, the one server of an instance ({@code /metrics}, {@code /healthz},
 * {@code /health/*}, the queries); without one the runner serves no HTTP (tests, the benchmark). Restoration progress is logged ({@link RestoreProgress}), dead letters are
 * counted ({@link DeadLetterCounter}), and one activity line is logged a minute ({@link ActivityLog});
 * {@code recourse.log.level} sets Recourse's loggers. {@link #close()} stops Streams and then the broker;
 * {@link #runUntilStopped()} does so on SIGTERM/SIGINT through a shutdown hook.
 */
public final class RecourseRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RecourseRunner.class);
    /** How long {@link #start()} waits for Streams to reach RUNNING. */
    public static final Duration RUNNING_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final RecourseConfig config;
    private final BiFunction<RecourseConfig, RecourseMeters, Topology> topologyBuilder;
    private final Time time;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private EmbeddedKafkaBroker broker;
    private KafkaStreams streams;
    private RecourseMetrics metrics;
    private String bootstrapServers;
    private List<String> createdTopics = List.of();
    private volatile boolean failed;
    private final RestoreProgress restore = new RestoreProgress();
    private Function<RecourseRunner, AutoCloseable> endpoint;
    private AutoCloseable endpointHandle;
    private ActivityLog activity;
    /** Interval of the activity line ({@link ActivityLog}). */
    static final Duration ACTIVITY_INTERVAL = Duration.ofMinutes(1);

    /** A runner for {@code config} with the Recourse topology. */
    public RecourseRunner(RecourseConfig config) {
        this(config, (c, meters) -> RecourseTopology.build(c, RecourseTopology.Options.with(meters)), Time.SYSTEM);
    }

    /** A runner with another topology builder (tests). */
    public RecourseRunner(RecourseConfig config, Function<RecourseConfig, Topology> topologyBuilder) {
        this(config, topologyBuilder, Time.SYSTEM);
    }

    /**
     * A runner whose Kafka Streams runs on the injected clock {@code time} (DESIGN §8: wall clock in
     * production; the demo's {@code --time-scale} passes a faster one): punctuators and
     * {@code currentSystemTimeMs} read it.
     */
    public RecourseRunner(RecourseConfig config, Function<RecourseConfig, Topology> topologyBuilder, Time time) {
        this(config, (c, meters) -> topologyBuilder.apply(c), time);
    }

    /**
     * A runner whose topology is built with the meters of the runner's Prometheus registry
     * ({@code (config, meters) -> RecourseTopology.build(config, Options.with(meters))} is the default), on the
     * injected clock {@code time}.
     */
    public RecourseRunner(RecourseConfig config, BiFunction<RecourseConfig, RecourseMeters, Topology> topologyBuilder,
                          Time time) {
        this.time = time;
        this.config = config;
        this.topologyBuilder = topologyBuilder;
    }

    /**
     * Serves {@code endpoint}, the instance's one HTTP server: {@link #start()} calls it once Kafka
     * Streams is started (before RUNNING, so readiness can say "not yet"), and {@link #close()} closes
     * what it returned. The CLI passes the HTTP server of {@code io.recourse.http}.
     *
     * @return this runner
     */
    public synchronized RecourseRunner withEndpoint(Function<RecourseRunner, AutoCloseable> endpoint) {
        this.endpoint = endpoint;
        return this;
    }

    /**
     * Starts everything and blocks until Streams is RUNNING.
     *
     * @return this runner
     * @throws ConfigurationException when a startup check fails (naming the topics)
     * @throws IllegalStateException  when Streams does not reach RUNNING within {@link #RUNNING_TIMEOUT}
     *                                or enters ERROR
     */
    public synchronized RecourseRunner start() {
        try {
            LogLevel.apply(config.logLevel());
            if (config.embedded()) {
                broker = EmbeddedKafkaBroker.forConfig(config).start();
                bootstrapServers = broker.bootstrapServers();
                LOG.info("no bootstrap.servers configured: using the embedded broker on {}", bootstrapServers);
            } else {
                bootstrapServers = config.bootstrapServers().orElseThrow();
                LOG.info("using the Kafka cluster at {}", bootstrapServers);
            }
            Topics topics = Topics.from(config);
            try (Admin admin = TopicCheck.admin(config, bootstrapServers)) {
                if (config.createTopics()) {
                    createdTopics = TopicProvisioner.createMissing(admin, topics, config, bootstrapServers);
                    LOG.info(createdTopics.isEmpty() ? "all {} Recourse topics already exist" : "created {} of the Recourse topics",
                            createdTopics.isEmpty() ? topics.all().size() : createdTopics.size());
                }
                StartupChecks.run(admin, topics, config, bootstrapServers,
                        StartupChecks.repartitionTopics(config.applicationId(), RecourseTopology.OWNER_SOURCES));
            }
            metrics = new RecourseMetrics(config);
            // topologies built with the global registry (the bench's builder) show on the endpoint too
            Metrics.addRegistry(metrics.registry());
            Topology topology = topologyBuilder.apply(config, metrics.meters());
            streams = new KafkaStreams(topology, streamsProperties(config, bootstrapServers), time);
            metrics.bind(streams);
            CountDownLatch running = new CountDownLatch(1);
            streams.setStateListener((now, before) -> {
                LOG.info("Kafka Streams {} -> {}", before, now);
                if (now == KafkaStreams.State.RUNNING) {
                    running.countDown();
                }
                if (now == KafkaStreams.State.ERROR) {
                    failed = true;
                }
                if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
                    running.countDown();
                    stopped.countDown();
                }
            });
            // Bad records never get here (the dead-letter handlers resume); what does is an infrastructure
            // failure (authorization, a fenced producer that cannot recover): stop, exit non-zero, and let
            // the supervisor restart the process, rather than replacing the thread in a loop.
            streams.setUncaughtExceptionHandler(e -> {
                LOG.error("stream thread died; shutting down this Recourse instance", e);
                return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            });
            streams.setGlobalStateRestoreListener(restore);
            streams.start();
            if (endpoint != null) {
                endpointHandle = endpoint.apply(this);
            }
            // RUNNING once is enough: a follow-up rebalance (REBALANCING again) is normal, failing is not
            if (!running.await(RUNNING_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    || !streams.state().isRunningOrRebalancing()) {
                throw new IllegalStateException("Kafka Streams did not reach RUNNING within " + RUNNING_TIMEOUT
                        + " (state " + streams.state() + ")");
            }
            activity = new ActivityLog(metrics.registry(), topics, ACTIVITY_INTERVAL).start();
            LOG.info("Recourse running: application.id={}, {} on {}, reading {}", config.applicationId(),
                    config.processingGuarantee(), bootstrapServers, topics.agentFrames().name());
            return this;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while starting", e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Starts, then blocks until Streams stops or the JVM is asked to stop (SIGTERM, SIGINT), and
     * stops cleanly in a shutdown hook.
     *
     * @return {@code true} when Streams stopped cleanly, {@code false} when it failed (state ERROR)
     */
    public boolean runUntilStopped() throws InterruptedException {
        Thread hook = new Thread(this::close, "recourse-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        start();
        stopped.await();
        close();
        return !failed;
    }

    /**
     * The Streams properties for {@code config} on {@code bootstrap}: pass-through plus Recourse's
     * fixed choices (dead-letter handlers, explicit internal names) and defaults a configuration may
     * override ({@code max.task.idle.ms=-1}).
     */
    public static Properties streamsProperties(RecourseConfig config, String bootstrap) {
        Map<String, Object> p = new HashMap<>(config.streamsProperties());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterDeserializationHandler.class.getName());
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterProcessingHandler.class.getName());
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        p.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterProductionHandler.class.getName());
        p.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        // A default, not a fixed choice: the owners' tasks read several topics (events, controls, acks)
        // written by different producers, whose relative order the policies never rely on (DESIGN §6.3:
        // "whichever comes first; frames and acks travel on different partitions"; generations, attempt
        // ids and command ids order them). Kafka's default 0 re-checks every
        // input partition's fetched lag before each record (PartitionGroup.readyToProcess), about 10 % of
        // the stream thread in the benchmark's profile (BENCHMARKS.md); -1 processes what is buffered.
        p.putIfAbsent(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, String.valueOf(StreamsConfig.MAX_TASK_IDLE_MS_DISABLED));
        // Static membership (DESIGN §8): a restarted instance rejoins as the same member within the
        // session timeout (Kafka's default 45 s, session.timeout.ms) and gets its tasks back without a
        // rebalance. Kafka Streams appends each stream thread's index to group.instance.id.
        String instance = config.instanceName();
        if (!config.embedded() && !instance.isEmpty()) {
            p.putIfAbsent("group.instance.id", config.applicationId() + "-" + instance);
        }
        // read by the dead-letter handlers' configure()
        p.put(TopicSpec.DLQ.key(), TopicSpec.DLQ.name(config));
        p.put(RecourseConfig.DLQ_MAX_RECORD_BYTES, String.valueOf(config.dlqMaxRecordBytes()));
        // the dead-letter counter (an interceptor on Streams' producers) reads the topic names
        for (String key : RecourseConfig.topicKeys()) {
            p.put(key, config.topicName(key));
        }
        String interceptors = StreamsConfig.producerPrefix(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG);
        Object configured = p.get(interceptors);
        p.put(interceptors, configured == null || configured.toString().isBlank() ? DeadLetterCounter.class.getName()
                : configured + "," + DeadLetterCounter.class.getName());
        Properties props = new Properties();
        props.putAll(p);
        return props;
    }

    /** Where the runner's clients connect (after {@link #start()}). */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The topics {@link #start()} created (empty when none). */
    public List<String> createdTopics() {
        return createdTopics;
    }

    /** The running Streams client, or {@code null} before {@link #start()}. */
    public KafkaStreams streams() {
        return streams;
    }

    /** The metrics of the running instance (registry, meters, endpoint), or {@code null} before {@link #start()}. */
    public RecourseMetrics metrics() {
        return metrics;
    }

    /** State restoration's progress (how many store partitions restore now). */
    public RestoreProgress restoreProgress() {
        return restore;
    }

    /** The clock Kafka Streams runs on (the wall clock, or the demo's scaled one). */
    public Time time() {
        return time;
    }

    /** The configuration this runner started with. */
    public RecourseConfig config() {
        return config;
    }

    /** The embedded broker, or {@code null} on an external cluster. */
    public EmbeddedKafkaBroker broker() {
        return broker;
    }

    /** Stops Streams (waiting up to 30 s; leaving the group on the embedded broker), then the embedded broker. Idempotent. */
    @Override
    public synchronized void close() {
        if (activity != null) {
            activity.close();
            activity = null;
        }
        if (endpointHandle != null) {
            try {
                endpointHandle.close();
            } catch (Exception e) {
                LOG.warn("endpoint did not close cleanly: {}", e.getClass().getName());
            }
            endpointHandle = null;
        }
        if (streams != null) {
            LOG.info("stopping Kafka Streams");
            // On the embedded broker this is the only instance: leave the group, so the next start does
            // not wait a session timeout for the old member. On a cluster keep Streams' default, which
            // avoids a rebalance while an instance of a larger group restarts.
            streams.close(CloseOptions.timeout(CLOSE_TIMEOUT).withGroupMembershipOperation(config.embedded()
                    ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP
                    : CloseOptions.GroupMembershipOperation.DEFAULT));
            streams = null;
        }
        if (metrics != null) {
            Metrics.removeRegistry(metrics.registry());
            metrics.close();
            metrics = null;
        }
        if (broker != null) {
            broker.close();
            broker = null;
        }
        stopped.countDown();
    }
}
