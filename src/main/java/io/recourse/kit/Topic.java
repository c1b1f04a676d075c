package io.recourse.kit;

import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * One topic of DESIGN §2: its configured name, the serdes of its key and value, and the topic
 * configs Recourse sets when it creates it ({@code cleanup.policy}, and
 * {@code message.timestamp.type=LogAppendTime} on the frames topic). The topology reads and
 * writes topics only through these values (STYLE.md "One registry of topics and serdes").
 *
 * @param name         the topic name, as configured
 * @param topicConfigs topic-level configs for creation, e.g. {@code cleanup.policy=compact}
 */
public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde, Map<String, String> topicConfigs) {

    public Topic {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keySerde, "keySerde");
        Objects.requireNonNull(valueSerde, "valueSerde");
        topicConfigs = Map.copyOf(topicConfigs);
    }

    /** {@code Consumed} with this topic's serdes and the given processor name. */
    public Consumed<K, V> consumed(String processorName) {
        return Consumed.with(keySerde, valueSerde).withName(processorName);
    }

    /** {@code Produced} with this topic's serdes and the given processor name. */
    public Produced<K, V> produced(String processorName) {
        return Produced.with(keySerde, valueSerde).withName(processorName);
    }

    /** The configured {@code cleanup.policy}: {@code delete} or {@code compact}. */
    public String cleanupPolicy() {
        return topicConfigs.getOrDefault("cleanup.policy", "delete");
    }
}
