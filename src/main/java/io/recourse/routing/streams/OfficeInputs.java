package io.recourse.routing.streams;

import static io.recourse.routing.streams.RoutingTopology.ADMITTED_BRANCH;
import static io.recourse.routing.streams.RoutingTopology.KEY_MISMATCH_MESSAGE;
import static io.recourse.routing.streams.RoutingTopology.REJECTED_BRANCH;

import io.recourse.avro.OfficeInputValue;
import io.recourse.ingress.streams.KeyedJsonCheck;
import io.recourse.kit.Admissions;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.DeadLetters;
import io.recourse.kit.Topics;
import io.recourse.routing.RoutingDispatchAck;
import io.recourse.routing.RunControl;
import io.recourse.routing.RunFinished;
import io.recourse.routing.RunRequest;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The admission of the Office inputs (DESIGN §7.1): one path per input topic from raw record to
 * typed input or dead letter, re-keyed by workspace onto the routing owner's partitions. Wired by
 * {@link RoutingTopology#attach} with its named processors and repartition topics.
 */
final class OfficeInputs {

    private OfficeInputs() {
    }

    /** Source → parse → split: rejects to the DLQ; admitted inputs re-keyed by workspace through the named repartition topic. */
    static KStream<String, Object> admitted(StreamsBuilder builder, Topics topics, String topic,
            String sourceName, String parseName, String splitName, String deadLetterName, String dlqSinkName,
            String admittedName, String repartitionName, String toInputName, int partitions,
            Function<byte[], Object> parse) {
        return Admissions.split(builder
                .stream(topic, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName(sourceName))
                .process(Admissions.processor(new KeyedJsonCheck<OfficeInputValue>(record -> {
                    Object in = parse.apply(record.value());
                    return new KeyedJsonCheck.Parsed<>(workspaceOf(in), RoutingAvro.toAvroInput(in));
                }, KEY_MISMATCH_MESSAGE), DeadLetters.maxRecordBytes(topics.dlq())), Named.as(parseName)),
                topics.dlq(), new Admissions.Names(splitName, REJECTED_BRANCH, ADMITTED_BRANCH, deadLetterName, dlqSinkName,
                        admittedName))
                .repartition(Repartitioned.<String, OfficeInputValue>as(repartitionName)
                        .withKeySerde(Serdes.String())
                        .withValueSerde(AvroSerde.of(OfficeInputValue.class))
                        .withNumberOfPartitions(partitions))
                .mapValues(RoutingAvro::fromAvroInput, Named.as(toInputName));
    }

    private static String workspaceOf(Object input) {
        if (input instanceof RunRequest r) {
            return r.workspaceId();
        } else if (input instanceof RunFinished f) {
            return f.workspaceId();
        } else if (input instanceof RunControl c) {
            return c.workspaceId();
        } else if (input instanceof RoutingDispatchAck a) {
            return a.workspaceId();
        }
        throw new IllegalArgumentException("not an Office input: " + input);
    }
}
