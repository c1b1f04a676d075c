package io.recourse.runtime;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Kafka's own configuration names (Streams, producer, consumer, admin), with the Streams client
 * prefixes ({@code producer.}, {@code main.consumer.}, …): what a {@code RECOURSE_*} variable may set
 * besides Recourse's keys (configuration hygiene, {@code config.ConfigSources}).
 */
public final class KafkaKeys {

    private static final List<String> PREFIXES = List.of(StreamsConfig.PRODUCER_PREFIX, StreamsConfig.CONSUMER_PREFIX,
            StreamsConfig.MAIN_CONSUMER_PREFIX, StreamsConfig.RESTORE_CONSUMER_PREFIX, StreamsConfig.GLOBAL_CONSUMER_PREFIX,
            StreamsConfig.ADMIN_CLIENT_PREFIX, StreamsConfig.TOPIC_PREFIX);
    private static final Set<String> NAMES = new HashSet<>();

    static {
        NAMES.addAll(StreamsConfig.configDef().names());
        NAMES.addAll(ProducerConfig.configNames());
        NAMES.addAll(ConsumerConfig.configNames());
        NAMES.addAll(AdminClientConfig.configNames());
    }

    private KafkaKeys() {
    }

    /** True for a Kafka client or Streams configuration name, bare or with a Streams client prefix. */
    public static boolean known(String key) {
        if (NAMES.contains(key)) {
            return true;
        }
        for (String prefix : PREFIXES) {
            if (key.startsWith(prefix)) {
                // topic.* passes any topic config; the others must name a client config
                return prefix.equals(StreamsConfig.TOPIC_PREFIX) || NAMES.contains(key.substring(prefix.length()));
            }
        }
        return false;
    }
}
