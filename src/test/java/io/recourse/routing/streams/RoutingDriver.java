package io.recourse.routing.streams;

import io.recourse.avro.ParkedRun;
import io.recourse.avro.ProviderHealth;
import io.recourse.avro.RouteAttempt;
import io.recourse.avro.RouteCommand;
import io.recourse.avro.RouteConfigValue;
import io.recourse.avro.RunState;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RouteConfigJson;
import io.recourse.routing.RoutingDispatchAck;
import io.recourse.routing.RoutingSimulator;
import io.recourse.routing.RunControl;
import io.recourse.routing.RunFinished;
import io.recourse.routing.RunRequest;
import io.recourse.routing.TimerEntry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * Drives {@link RoutingTestTopology} in a {@link TopologyTestDriver} whose wall clock starts at
 * {@code start}: JSON inputs on the Office topics, SessionEvents on the test topic, and a replay of
 * a {@link RoutingSimulator}'s inputs (timer steps become wall-clock advances, so the punctuator
 * fires them). Punctuation every millisecond, so a timer fires exactly when the clock reaches it.
 */
public final class RoutingDriver implements AutoCloseable {

    public final RecourseConfig config;
    public final Topics topics;
    public final TopologyTestDriver driver;
    private Instant now;
    private final TestInputTopic<String, byte[]> routeConfig;
    private final TestInputTopic<String, byte[]> requests;
    private final TestInputTopic<String, byte[]> controls;
    private final TestInputTopic<String, byte[]> acks;
    private final TestInputTopic<String, io.recourse.avro.SessionEvent> events;
    public final TestOutputTopic<String, RouteCommand> commands;
    public final TestOutputTopic<String, RunState> runStates;
    public final TestOutputTopic<String, RouteAttempt> attempts;
    public final TestOutputTopic<String, ProviderHealth> health;
    public final TestOutputTopic<String, ParkedRun> parked;
    public final TestOutputTopic<String, RouteConfigValue> validated;
    public final TestOutputTopic<byte[], byte[]> dlq;

    public RoutingDriver(Instant start, RoutingTopology.Options options) {
        this(start, options, Map.of());
    }

    /** A driver whose configuration has {@code overrides} on top of a 1 ms punctuation interval. */
    public RoutingDriver(Instant start, RoutingTopology.Options options, Map<String, String> overrides) {
        Map<String, String> settings = new java.util.HashMap<>(overrides);
        settings.putIfAbsent(RecourseConfig.PUNCTUATION_INTERVAL_MS, "1");
        this.config = RecourseConfig.of(settings);
        this.topics = Topics.from(config);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "recourse-routing-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        try {
            props.put(StreamsConfig.STATE_DIR_CONFIG, java.nio.file.Files.createTempDirectory("recourse-routing-test").toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        this.driver = new TopologyTestDriver(RoutingTestTopology.build(config, options), props, start);
        this.now = start;
        StringSerializer s = new StringSerializer();
        ByteArraySerializer b = new ByteArraySerializer();
        routeConfig = driver.createInputTopic(topics.routeConfig().name(), s, b, start, Duration.ZERO);
        requests = driver.createInputTopic(topics.officeRunRequests().name(), s, b, start, Duration.ZERO);
        controls = driver.createInputTopic(topics.officeRunControls().name(), s, b, start, Duration.ZERO);
        acks = driver.createInputTopic(topics.officeDispatchAcks().name(), s, b, start, Duration.ZERO);
        events = driver.createInputTopic(RoutingTestTopology.SESSION_EVENTS, s,
                AvroSerde.of(io.recourse.avro.SessionEvent.class).serializer(), start, Duration.ZERO);
        StringDeserializer sd = new StringDeserializer();
        commands = driver.createOutputTopic(topics.officeRouteCommands().name(), sd, topics.officeRouteCommands().valueSerde().deserializer());
        runStates = driver.createOutputTopic(topics.officeRunState().name(), sd, topics.officeRunState().valueSerde().deserializer());
        attempts = driver.createOutputTopic(topics.officeRouteAttempts().name(), sd, topics.officeRouteAttempts().valueSerde().deserializer());
        health = driver.createOutputTopic(topics.officeProviderHealth().name(), sd, topics.officeProviderHealth().valueSerde().deserializer());
        parked = driver.createOutputTopic(topics.officeParkedRuns().name(), sd, topics.officeParkedRuns().valueSerde().deserializer());
        validated = driver.createOutputTopic(topics.routeConfigValidated().name(), sd, topics.routeConfigValidated().valueSerde().deserializer());
        dlq = driver.createOutputTopic(topics.dlq().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** The injected clock. */
    public Instant now() {
        return now;
    }

    /** Advances the wall clock to {@code t} (never backwards); due timers fire. */
    public void advanceTo(Instant t) {
        if (t.isAfter(now)) {
            driver.advanceWallClockTime(Duration.between(now, t));
            now = t;
        }
    }

    /** A route configuration document as JSON, keyed by its profile id. */
    public void routeConfig(RouteConfig c) {
        routeConfigRaw(c.dynamicProfileId(), RouteConfigJson.write(c));
    }

    public void routeConfigRaw(String key, String json) {
        routeConfig.pipeInput(key, json == null ? null : json.getBytes(StandardCharsets.UTF_8), now);
    }

    public void routeConfigBytes(String key, byte[] value) {
        routeConfig.pipeInput(key, value, now);
    }

    public void request(RunRequest r) {
        requests.pipeInput(r.workspaceId(), RoutingJsonFixtures.json(r), now);
    }

    public void finished(RunFinished f) {
        requests.pipeInput(f.workspaceId(), RoutingJsonFixtures.json(f), now);
    }

    public void control(RunControl c) {
        controls.pipeInput(c.workspaceId(), RoutingJsonFixtures.json(c), now);
    }

    public void ack(RoutingDispatchAck a) {
        acks.pipeInput(a.workspaceId(), RoutingJsonFixtures.json(a), now);
    }

    public void rawRequest(String key, String json) {
        requests.pipeInput(key, json.getBytes(StandardCharsets.UTF_8), now);
    }

    public void event(SessionEvent e) {
        io.recourse.avro.SessionEvent avro = AvroMapping.toAvro(e);
        events.pipeInput(contextOf(avro).getWorkspaceId(), avro, now);
    }

    /** Pipes a simulator's inputs in order at their instants; timer steps only move the clock. */
    public void replay(List<RoutingSimulator.Step> steps) {
        for (RoutingSimulator.Step step : steps) {
            advanceTo(step.at());
            Object in = step.input();
            if (in instanceof TimerEntry) {
                continue;
            } else if (in instanceof RunRequest r) {
                request(r);
            } else if (in instanceof RunFinished f) {
                finished(f);
            } else if (in instanceof RunControl c) {
                control(c);
            } else if (in instanceof RoutingDispatchAck a) {
                ack(a);
            } else if (in instanceof SessionEvent e) {
                event(e);
            } else {
                throw new IllegalArgumentException("unknown step " + in);
            }
        }
    }

    /** Every record on the five outputs so far, per topic name, as key/value pairs in order. */
    public Map<String, List<KeyValue<String, SpecificRecord>>> outputs() {
        Map<String, List<KeyValue<String, SpecificRecord>>> out = new LinkedHashMap<>();
        out.put("route-commands", List.copyOf(commands.readKeyValuesToList().stream().map(RoutingDriver::kv).toList()));
        out.put("run-state", List.copyOf(runStates.readKeyValuesToList().stream().map(RoutingDriver::kv).toList()));
        out.put("route-attempts", List.copyOf(attempts.readKeyValuesToList().stream().map(RoutingDriver::kv).toList()));
        out.put("provider-health", List.copyOf(health.readKeyValuesToList().stream().map(RoutingDriver::kv).toList()));
        out.put("parked-runs", List.copyOf(parked.readKeyValuesToList().stream().map(RoutingDriver::kv).toList()));
        return out;
    }

    private static KeyValue<String, SpecificRecord> kv(KeyValue<String, ? extends SpecificRecord> kv) {
        return KeyValue.pair(kv.key, kv.value);
    }

    /** The turn context of any SessionEvent branch (every branch record has {@code context}). */
    public static io.recourse.avro.TurnContext contextOf(io.recourse.avro.SessionEvent e) {
        return (io.recourse.avro.TurnContext) ((org.apache.avro.generic.IndexedRecord) e.getEvent())
                .get(((org.apache.avro.generic.IndexedRecord) e.getEvent()).getSchema().getField("context").pos());
    }

    @Override
    public void close() {
        driver.close();
    }

    public static Serdes.StringSerde strings() {
        return new Serdes.StringSerde();
    }
}
