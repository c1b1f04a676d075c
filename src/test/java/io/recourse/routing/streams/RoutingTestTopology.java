package io.recourse.routing.streams;

import io.recourse.avro.SessionEvent;
import io.recourse.config.RecourseConfig;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Consumed;

/**
 * A test-only topology: the routing stage of {@link RoutingTopology#attach} fed with SessionEvents
 * from {@link #SESSION_EVENTS} (keyed by {@code workspace_id}, Avro) instead of the evidence stage,
 * through the same repartition topic. Runs with {@code ensure.explicit.internal.resource.naming=true}.
 */
public final class RoutingTestTopology {

    /** Test input of workspace-keyed SessionEvents. */
    public static final String SESSION_EVENTS = "test.routing.session-events";
    public static final String SESSION_EVENTS_SOURCE = "test-routing-session-events-source";

    private RoutingTestTopology() {
    }

    public static Topology build(RecourseConfig config, RoutingTopology.Options options) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers().orElse("unused:9092"));
        p.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(p)));
        Topics topics = Topics.from(config);
        var events = builder.stream(SESSION_EVENTS, Consumed.with(Serdes.String(), AvroSerde.of(SessionEvent.class))
                .withName(SESSION_EVENTS_SOURCE));
        RoutingTopology.attach(builder, RoutingTopology.byWorkspace(events, config), topics, config, options);
        return builder.build();
    }
}
