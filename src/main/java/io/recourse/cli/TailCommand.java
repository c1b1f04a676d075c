package io.recourse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.avro.KanbanDispatchAckValue;
import io.recourse.avro.OfficeInputValue;
import io.recourse.avro.RoutingRunValue;
import io.recourse.avro.RoutingWorkspaceValue;
import io.recourse.avro.SessionControlValue;
import io.recourse.avro.SessionEvent;
import io.recourse.avro.SessionStateValue;
import io.recourse.avro.StoredSignal;
import io.recourse.avro.TurnStateValue;
import io.recourse.config.RecourseConfig;
import io.recourse.kit.AvroJson;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topic;
import io.recourse.kit.Topics;
import io.recourse.runtime.ClusterConnection;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code recourse tail TOPIC}: prints a Recourse topic's records as JSON lines
 * ({@code topic, partition, offset, timestamp, key, headers, value}). Values in Avro single-object
 * encoding (every output, changelog and repartition topic) decode by their schema fingerprint into
 * plain JSON ({@link AvroJson}); JSON inputs print as the JSON they are; anything else (a dead letter's
 * original bytes) as UTF-8 text, or {@code value_base64} when it is not UTF-8. Headers (the DLQ's
 * {@code recourse.error.*}) print as text. Reads with {@code read_committed} and no consumer group
 * (no offsets are committed): from the end unless {@code --from-beginning}; stops at the end offsets
 * it saw at start unless {@code --follow}. Connects like {@code topics} and {@code produce}
 * ({@link ClusterOptions}: {@code bootstrap.servers} or {@code --bootstrap-server}, else the embedded
 * broker of {@code state.dir}, the running {@code recourse run}'s when there is one); a topic that does
 * not exist is one line and exit 1, an unreachable cluster {@code run}'s one-line message and exit 2.
 */
@Command(name = "tail", mixinStandardHelpOptions = true,
        description = "Print a Recourse topic's records as JSON lines (Avro, JSON inputs and dead letters decoded).")
public final class TailCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The Avro types Recourse writes besides the topic registry's: stores' changelogs, repartition topics. */
    private static final List<Class<? extends SpecificRecord>> INTERNAL_TYPES = List.of(SessionEvent.class,
            SessionControlValue.class, KanbanDispatchAckValue.class, OfficeInputValue.class, SessionStateValue.class,
            RoutingRunValue.class, RoutingWorkspaceValue.class, TurnStateValue.class, StoredSignal.class);

    @Mixin
    ClusterOptions connection;

    @Parameters(index = "0", paramLabel = "TOPIC", description = "The topic, e.g. recourse.office.provider-health.")
    String topic;

    @Option(names = "--from-beginning", description = "Start at the earliest offset (default: the end).")
    boolean fromBeginning;

    @Option(names = {"-f", "--follow"}, description = "Keep printing new records until stopped.")
    boolean follow;

    @Option(names = "--key", paramLabel = "K", description = "Only records whose key (as UTF-8) is K.")
    String key;

    @Option(names = "--max-records", paramLabel = "N", defaultValue = "-1", hidden = true,
            description = "Stop after N records (tests).")
    long maxRecords;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        RecourseConfig c = connection.load();
        Decoder decoder = new Decoder(Topics.from(c));
        PrintWriter out = spec.commandLine().getOut();
        try (ClusterConnection cluster = ClusterOptions.connect(c)) {
            if (!ClusterOptions.topicExists(c, cluster, topic)) {
                spec.commandLine().getErr().println("no such topic: " + topic + " on " + cluster.describe());
                return 1;
            }
            return tail(c, cluster.bootstrap(), decoder, out);
        }
    }

    private int tail(RecourseConfig c, String servers, Decoder decoder, PrintWriter out) {
        Map<String, Object> props = new LinkedHashMap<>(c.clientProperties(servers));
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                spec.commandLine().getErr().println("no such topic: " + topic);
                return 1;
            }
            List<TopicPartition> partitions = new ArrayList<>();
            infos.forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            consumer.assign(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            if (fromBeginning) {
                consumer.seekToBeginning(partitions);
            } else {
                consumer.seekToEnd(partitions);
            }
            long printed = 0;
            while (true) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (key != null && (r.key() == null || !key.equals(new String(r.key(), StandardCharsets.UTF_8)))) {
                        continue;
                    }
                    out.println(decoder.line(r));
                    printed++;
                    if (maxRecords >= 0 && printed >= maxRecords) {
                        out.flush();
                        return 0;
                    }
                }
                out.flush();
                if (!follow && partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp))) {
                    return 0;
                }
            }
        }
    }

    /** Turns records into JSON lines; public to the package for its test. */
    static final class Decoder {
        private final Map<String, AvroSerde<? extends SpecificRecord>> byTopic = new LinkedHashMap<>();
        private final List<AvroSerde<? extends SpecificRecord>> all = new ArrayList<>();

        Decoder(Topics topics) {
            for (Topic<?, ?> t : topics.all()) {
                if (t.valueSerde() instanceof AvroSerde<?> a) {
                    byTopic.put(t.name(), a);
                    all.add(a);
                }
            }
            INTERNAL_TYPES.forEach(type -> all.add(AvroSerde.of(type)));
        }

        String line(ConsumerRecord<byte[], byte[]> r) {
            ObjectNode o = JSON.createObjectNode();
            o.put("topic", r.topic());
            o.put("partition", r.partition());
            o.put("offset", r.offset());
            o.put("timestamp", Instant.ofEpochMilli(r.timestamp()).toString());
            bytes(o, "key", r.key());
            if (r.headers().toArray().length > 0) {
                ObjectNode h = o.putObject("headers");
                for (Header header : r.headers()) {
                    String text = utf8(header.value());
                    h.put(header.key(), text != null ? text : Base64.getEncoder().encodeToString(header.value()));
                }
            }
            value(o, r.topic(), r.value());
            return o.toString();
        }

        private void value(ObjectNode o, String topic, byte[] v) {
            if (v == null) {
                o.putNull("value");
                return;
            }
            if (v.length >= 10 && (v[0] & 0xff) == 0xC3 && v[1] == 0x01) {
                AvroSerde<? extends SpecificRecord> first = byTopic.get(topic);
                if (first != null) {
                    try {
                        o.set("value", AvroJson.toJson(first.decode(v)));
                        return;
                    } catch (RuntimeException e) {
                        // not this topic's type: try the others
                    }
                }
                for (AvroSerde<? extends SpecificRecord> a : all) {
                    try {
                        SpecificRecord rec = a.decode(v);
                        o.put("value_type", rec.getSchema().getName());
                        o.set("value", AvroJson.toJson(rec));
                        return;
                    } catch (RuntimeException e) {
                        // the next type
                    }
                }
            }
            String text = utf8(v);
            if (text != null) {
                try {
                    JsonNode json = JSON.readTree(text);
                    if (json != null && (json.isObject() || json.isArray())) {
                        o.set("value", json);
                        return;
                    }
                } catch (java.io.IOException e) {
                    // not JSON: the text
                }
            }
            bytes(o, "value", v);
        }

        private static void bytes(ObjectNode o, String field, byte[] b) {
            if (b == null) {
                o.putNull(field);
                return;
            }
            String text = utf8(b);
            if (text != null) {
                o.put(field, text);
            } else {
                o.put(field + "_base64", Base64.getEncoder().encodeToString(b));
            }
        }

        /** {@code b} as strict UTF-8, or {@code null} when it is not UTF-8. */
        static String utf8(byte[] b) {
            try {
                CharBuffer c = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b));
                return c.toString();
            } catch (CharacterCodingException e) {
                return null;
            }
        }
    }
}
