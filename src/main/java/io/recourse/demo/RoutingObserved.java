package io.recourse.demo;

import io.recourse.routing.streams.RoutingOutput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** What the routing demo read so far: every output record per topic, in read order, and the dead letters. */
final class RoutingObserved {

    static final List<RoutingOutput.Kind> KINDS = List.of(RoutingOutput.Kind.values());

    final Map<RoutingOutput.Kind, List<ConsumerRecord<String, ? extends SpecificRecord>>> records = new EnumMap<>(RoutingOutput.Kind.class);
    /** Dead letters seen (a frame the dispatcher built that ingress rejected is a demo bug): headers and value. */
    final List<String> deadLetters = new ArrayList<>();
    /**
     * The record time of each dispatched turn, by the {@code command_id} it answered: its terminal
     * frame's broker append time on the scaled clock, the instant the owner anchors a failure's
     * instants to (DESIGN §8).
     */
    final Map<String, Instant> turnRecordedAt = new HashMap<>();

    RoutingObserved() {
        KINDS.forEach(k -> records.put(k, new ArrayList<>()));
    }
}
