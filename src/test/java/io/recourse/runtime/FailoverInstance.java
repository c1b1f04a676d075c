package io.recourse.runtime;

import io.recourse.avro.SessionEvent;
import io.recourse.config.RecourseConfig;
import io.recourse.interactive.streams.InteractiveTestTopology;
import io.recourse.interactive.streams.InteractiveTopology;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import io.recourse.routing.JitterSource;
import io.recourse.routing.streams.RoutingTestTopology;
import io.recourse.routing.streams.RoutingTopology;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Consumed;

/**
 * One Recourse instance of {@link TwoInstanceFailoverIT}: both owners (the interactive owner fed
 * from {@link InteractiveTestTopology#SESSION_EVENTS}, the routing owner from
 * {@link RoutingTestTopology#SESSION_EVENTS}, each through its production repartition topic) on
 * {@link RecourseRunner}. {@link #main} runs it as its own process the way an operator does
 * ({@link RecourseRunner#runUntilStopped()}: SIGTERM closes Streams without leaving the group).
 */
public final class FailoverInstance {

    private FailoverInstance() {
    }

    /** Both owners with their configured policies (hashed jitter). */
    public static Topology topology(RecourseConfig config) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers().orElse("unused:9092"));
        p.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(p)));
        Topics topics = Topics.from(config);
        var kanbanEvents = builder.stream(InteractiveTestTopology.SESSION_EVENTS,
                Consumed.with(Serdes.String(), AvroSerde.of(SessionEvent.class)).withName(InteractiveTestTopology.SESSION_EVENTS_SOURCE));
        InteractiveTopology.attach(builder, InteractiveTopology.bySession(kanbanEvents, config), topics, config);
        var officeEvents = builder.stream(RoutingTestTopology.SESSION_EVENTS,
                Consumed.with(Serdes.String(), AvroSerde.of(SessionEvent.class)).withName(RoutingTestTopology.SESSION_EVENTS_SOURCE));
        RoutingTopology.attach(builder, RoutingTopology.byWorkspace(officeEvents, config), topics, config,
                new RoutingTopology.Options(RoutingTopology.settings(config), JitterSource.hashing(), UnaryOperator.identity()));
        return builder.build();
    }

    /** {@code FailoverInstance <recourse.properties>}: runs until SIGTERM (exit 0) or a failure (exit 1). */
    public static void main(String[] args) throws Exception {
        RecourseConfig config = RecourseConfig.load(Path.of(args[0]), Map.of());
        boolean clean = new RecourseRunner(config, FailoverInstance::topology).withEndpoint(io.recourse.http.RecourseHttp::start).runUntilStopped();
        System.exit(clean ? 0 : 1);
    }
}
