package io.recourse.interactive.streams;

import io.recourse.avro.SessionEvent;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;

/**
 * A test-only topology around {@link InteractiveTopology}: SessionEvents come from
 * {@link #SESSION_EVENTS} (Avro, keyed by session id) instead of the evidence stage, and pass the
 * owner's repartition topic {@code SESSION_EVENTS_BY_SESSION} as in production. Built with
 * {@code ensure.explicit.internal.resource.naming=true}.
 */
public final class InteractiveTestTopology {

    /** Test input topic of Avro SessionEvents keyed by session id. */
    public static final String SESSION_EVENTS = "recourse.test.session-events";
    public static final String SESSION_EVENTS_SOURCE = "recourse-test-session-events-source";

    private InteractiveTestTopology() {
    }

    /** With the configured policy (hashed jitter). */
    public static Topology build(RecourseConfig config) {
        return build(config, null);
    }

    /** With {@code policy}, or the configured one when {@code null}. */
    public static Topology build(RecourseConfig config, InteractiveRecoveryPolicy policy) {
        return build(config, policy, null);
    }

    /** With {@code policy} (or the configured one) and record times mapped onto the clock by {@code recordClock} (identity when {@code null}). */
    public static Topology build(RecourseConfig config, InteractiveRecoveryPolicy policy,
                                 java.util.function.UnaryOperator<java.time.Instant> recordClock) {
        return build(config, policy, recordClock, null);
    }

    /** As {@link #build(RecourseConfig, InteractiveRecoveryPolicy, java.util.function.UnaryOperator)}, recording metrics in {@code meters} (the global registry when {@code null}). */
    public static Topology build(RecourseConfig config, InteractiveRecoveryPolicy policy,
                                 java.util.function.UnaryOperator<java.time.Instant> recordClock, RecourseMeters meters) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers().orElse("unused:9092"));
        p.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        StreamsBuilder builder = new StreamsBuilder(new TopologyConfig(new StreamsConfig(p)));
        Topics topics = Topics.from(config);
        KStream<String, SessionEvent> events = InteractiveTopology.bySession(builder.stream(SESSION_EVENTS,
                Consumed.with(Serdes.String(), AvroSerde.of(SessionEvent.class)).withName(SESSION_EVENTS_SOURCE)), config);
        if (meters != null) {
            InteractiveTopology.attach(builder, events, topics, config,
                    policy != null ? policy : new InteractiveRecoveryPolicy(InteractiveTopology.interactiveConfig(config),
                            io.recourse.interactive.JitterSource.hashed()),
                    recordClock != null ? recordClock : java.util.function.UnaryOperator.identity(), meters);
        } else if (recordClock != null) {
            InteractiveTopology.attach(builder, events, topics, config,
                    policy != null ? policy : new InteractiveRecoveryPolicy(InteractiveTopology.interactiveConfig(config),
                            io.recourse.interactive.JitterSource.hashed()), recordClock);
        } else if (policy == null) {
            InteractiveTopology.attach(builder, events, topics, config);
        } else {
            InteractiveTopology.attach(builder, events, topics, config, policy);
        }
        return builder.build();
    }
}
