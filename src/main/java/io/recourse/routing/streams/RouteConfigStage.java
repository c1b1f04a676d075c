package io.recourse.routing.streams;

import static io.recourse.routing.streams.RoutingTopology.ADMITTED_BRANCH;
import static io.recourse.routing.streams.RoutingTopology.INVALID_ROUTE_CONFIG;
import static io.recourse.routing.streams.RoutingTopology.KEY_MISMATCH_MESSAGE;
import static io.recourse.routing.streams.RoutingTopology.REJECTED_BRANCH;
import static io.recourse.routing.streams.RoutingTopology.ROUTE_CONFIG_DEAD_LETTER;
import static io.recourse.routing.streams.RoutingTopology.ROUTE_CONFIG_DLQ_SINK;
import static io.recourse.routing.streams.RoutingTopology.ROUTE_CONFIG_SOURCE;
import static io.recourse.routing.streams.RoutingTopology.ROUTE_CONFIG_SPLIT;
import static io.recourse.routing.streams.RoutingTopology.ROUTE_CONFIG_STORE;
import static io.recourse.routing.streams.RoutingTopology.ROUTE_CONFIG_TOMBSTONE_REJECTED;
import static io.recourse.routing.streams.RoutingTopology.ROUTE_CONFIG_VALIDATE;
import static io.recourse.routing.streams.RoutingTopology.ROUTE_CONFIG_VALIDATED_SINK;
import static io.recourse.routing.streams.RoutingTopology.ROUTE_CONFIG_VALIDATED_SOURCE;
import static io.recourse.routing.streams.RoutingTopology.ROUTE_CONFIG_VALUE;

import io.recourse.avro.RouteConfigValue;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.ingress.DlqReason;
import io.recourse.ingress.StrictJson;
import io.recourse.ingress.streams.KeyedJsonCheck;
import io.recourse.kit.Admissions;
import io.recourse.kit.DeadLetters;
import io.recourse.kit.Topic;
import io.recourse.kit.Topics;
import io.recourse.routing.RouteConfigJson;
import io.recourse.routing.RouteConfigValidation;
import java.util.regex.Pattern;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The route configuration stage of the routing owner's sub-topology (DESIGN §7.1), wired by
 * {@link RoutingTopology#attach}; its processors and store are named by {@link RoutingTopology}'s constants.
 */
final class RouteConfigStage {

    private static final Logger LOG = LoggerFactory.getLogger(RouteConfigStage.class);
    private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9_.\\[\\]/-]{1,64}");

    private RouteConfigStage() {
    }

    /**
     * The route configuration stage (DESIGN §7.1): validate and normalize {@code recourse.route-config}
     * into the compacted {@code recourse.route-config.validated}, rejects to the DLQ with reason
     * {@value RoutingTopology#INVALID_ROUTE_CONFIG} (or {@code key_mismatch}, or {@value RoutingTopology#ROUTE_CONFIG_TOMBSTONE_REJECTED}
     * for a null value when tombstones are not allowed, so the last valid document stays in force),
     * and the GlobalKTable over the validated topic whose store is {@value RoutingTopology#ROUTE_CONFIG_STORE}.
     * Unknown members of a valid document are logged and counted
     * ({@link RecourseMeters#routeConfigUnknownFields}), never fatal.
     *
     * @param tombstonesAllowed {@code recourse.route-config.tombstones=allow}: a null value passes on
     *                          and deletes the profile's document
     * @param meters            the topology's meters, which count the unknown fields
     */
    static void attach(StreamsBuilder builder, Topics topics, boolean tombstonesAllowed, RecourseMeters meters) {
        meters.routeConfigUnknownFields(0); // registered when the topology is built: the scrape shows 0 until one is seen
        Topic<String, RouteConfigValue> validated = topics.routeConfigValidated();
        Admissions.split(builder
                .stream(topics.routeConfig().name(), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray())
                        .withName(ROUTE_CONFIG_SOURCE))
                .process(Admissions.processor(new KeyedJsonCheck<RouteConfigValue>(
                        r -> validateRouteConfig(r, tombstonesAllowed, meters), KEY_MISMATCH_MESSAGE),
                        DeadLetters.maxRecordBytes(topics.dlq())), Named.as(ROUTE_CONFIG_VALIDATE)),
                topics.dlq(), new Admissions.Names(ROUTE_CONFIG_SPLIT, REJECTED_BRANCH, ADMITTED_BRANCH,
                        ROUTE_CONFIG_DEAD_LETTER, ROUTE_CONFIG_DLQ_SINK, ROUTE_CONFIG_VALUE))
                .to(validated.name(), validated.produced(ROUTE_CONFIG_VALIDATED_SINK));
        builder.globalTable(validated.name(), validated.consumed(ROUTE_CONFIG_VALIDATED_SOURCE),
                Materialized.<String, RouteConfigValue, KeyValueStore<Bytes, byte[]>>as(ROUTE_CONFIG_STORE)
                        .withKeySerde(validated.keySerde()).withValueSerde(validated.valueSerde()));
    }

    /**
     * Validates one route-config record: a null value is a delete only when tombstones are allowed
     * (and needs its key); a document must validate and carry its key's id.
     */
    private static KeyedJsonCheck.Parsed<RouteConfigValue> validateRouteConfig(Record<byte[], byte[]> record,
                                                                                      boolean tombstonesAllowed,
                                                                                      RecourseMeters meters) {
        if (record.value() == null) {
            if (!tombstonesAllowed) {
                throw new RoutingJson.Rejection(ROUTE_CONFIG_TOMBSTONE_REJECTED,
                        "null value: deleting a route configuration needs " + RecourseConfig.ROUTE_CONFIG_TOMBSTONES + "=allow");
            }
            if (record.key() == null) {
                throw new RoutingJson.Rejection(DlqReason.MISSING_FIELD.wire(), "tombstone without a key");
            }
            String key;
            try {
                key = StrictJson.utf8(record.key());
            } catch (StrictJson.Invalid e) {
                throw new RoutingJson.Rejection(DlqReason.INVALID_KEY.wire(), "key: " + e.getMessage());
            }
            return new KeyedJsonCheck.Parsed<>(key, null);
        }
        RouteConfigValidation v = RouteConfigJson.read(record.value());
        if (!v.isValid()) {
            throw new RoutingJson.Rejection(INVALID_ROUTE_CONFIG, v.reason());
        }
        if (!v.unknownFields().isEmpty()) {
            meters.routeConfigUnknownFields(v.unknownFields().size());
            LOG.info("route configuration {} accepted with {} unknown field(s) ignored: {}",
                    safe(v.config().dynamicProfileId()), v.unknownFields().size(),
                    v.unknownFields().stream().limit(8).map(RouteConfigStage::safe).toList());
        }
        return new KeyedJsonCheck.Parsed<>(v.config().dynamicProfileId(), RoutingAvro.toAvro(v.config()));
    }

    /** Producer text fit for a log line: itself when it is a short plain name or path, else {@code ?}. */
    private static String safe(String s) {
        return s != null && SAFE_NAME.matcher(s).matches() ? s : "?";
    }
}
