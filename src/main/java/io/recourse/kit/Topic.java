package io.recourse.kit;

import io.recourse.config.RecourseConfig;
import io.recourse.config.TopicSpec;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Produced;

/**
 * One topic of DESIGN §2 as configured: its {@link TopicSpec declaration}, its configured name, the
 * serdes derived from the declared key and value types, and the topic configs Recourse sets when it
 * creates it ({@code cleanup.policy}, and {@code message.timestamp.type=LogAppendTime} on the frames
 * topic). The topology reads and writes topics only through these values, preferably through
 * {@link #stream} and {@link #to}, which cannot pair a topic with another topic's serdes (STYLE.md
 * "One registry of topics and serdes").
 *
 * @param spec         the declaration
 * @param name         the topic name, as configured
 * @param topicConfigs topic-level configs for creation, e.g. {@code cleanup.policy=compact}
 */
public record Topic<K, V>(TopicSpec<K, V> spec, String name, Serde<K> keySerde, Serde<V> valueSerde,
                          Map<String, String> topicConfigs) {

    public Topic {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(keySerde, "keySerde");
        Objects.requireNonNull(valueSerde, "valueSerde");
        topicConfigs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(topicConfigs)); // in declaration order
    }

    /** The topic of {@code spec} under the name {@code config} gives it, with serdes derived from the declared types. */
    public static <K, V> Topic<K, V> of(TopicSpec<K, V> spec, RecourseConfig config) {
        return new Topic<>(spec, spec.name(config), serde(spec.keyType()), serde(spec.valueType()), spec.topicConfigs(config));
    }

    /** {@code String} and {@code byte[]}: Kafka's serdes; an Avro record: {@link AvroSerde} (single-object encoding). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static <T> Serde<T> serde(Class<T> type) {
        if (type == String.class) {
            return (Serde<T>) Serdes.String();
        }
        if (type == byte[].class) {
            return (Serde<T>) Serdes.ByteArray();
        }
        if (SpecificRecord.class.isAssignableFrom(type)) {
            return (Serde<T>) AvroSerde.of((Class) type);
        }
        throw new IllegalArgumentException("no serde for " + type.getName());
    }

    /** {@code Consumed} with this topic's serdes and the given processor name. */
    public Consumed<K, V> consumed(String processorName) {
        return Consumed.with(keySerde, valueSerde).withName(processorName);
    }

    /** {@code Produced} with this topic's serdes and the given processor name. */
    public Produced<K, V> produced(String processorName) {
        return Produced.with(keySerde, valueSerde).withName(processorName);
    }

    /** This topic as a stream of {@code builder}, read with its serdes by the source processor {@code processorName}. */
    public KStream<K, V> stream(StreamsBuilder builder, String processorName) {
        return builder.stream(name, consumed(processorName));
    }

    /** Writes {@code stream} to this topic with its serdes through the sink processor {@code processorName}. */
    public void to(KStream<K, V> stream, String processorName) {
        stream.to(name, produced(processorName));
    }

    /** The configured {@code cleanup.policy}: {@code delete} or {@code compact}. */
    public String cleanupPolicy() {
        return topicConfigs.getOrDefault("cleanup.policy", "delete");
    }
}
