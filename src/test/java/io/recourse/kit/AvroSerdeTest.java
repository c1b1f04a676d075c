package io.recourse.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recourse.avro.CandidateBlock;
import io.recourse.avro.Classification;
import io.recourse.avro.ParkedRun;
import io.recourse.avro.RetryCommand;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.AvroSamples;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

public class AvroSerdeTest {

    private static final Instant T0 = AvroSamples.T0;
    private final AvroSerde<Classification> serde = AvroSerde.of(Classification.class);

    @Test
    public void a_record_round_trips_through_single_object_encoding() {
        Classification c = AvroMapping.publishedClassification(AvroSamples.failedOutcome());

        assertThat(serde.deserialize("t", serde.serialize("t", c))).isEqualTo(c);
    }

    @Test
    public void the_encoding_starts_with_the_marker_and_the_schema_fingerprint() {
        byte[] bytes = serde.encode(AvroMapping.publishedClassification(AvroSamples.failedOutcome()));
        long fingerprint = SchemaNormalization.parsingFingerprint64(Classification.getClassSchema());

        assertThat(bytes[0]).isEqualTo((byte) 0xC3);
        assertThat(bytes[1]).isEqualTo((byte) 0x01);
        assertThat(ByteBuffer.wrap(bytes, 2, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong()).isEqualTo(fingerprint);
    }

    @Test
    public void records_with_arrays_and_optional_instants_round_trip() {
        AvroSerde<ParkedRun> parked = AvroSerde.of(ParkedRun.class);
        ParkedRun run = ParkedRun.newBuilder().setRunId("r1").setWorkspaceId("w1").setStatus("waiting_for_provider_capacity")
                .setWakeAt(T0.plusSeconds(600)).setParkedAt(T0)
                .setCandidates(List.of(CandidateBlock.newBuilder().setExecutionProfileId("e1").setReason("degraded")
                        .setAvailableAt(T0.plusSeconds(600)).build()))
                .build();

        ParkedRun back = parked.decode(parked.encode(run));

        // Avro's GenericData.Array.equals ignores logical-type conversions, so compare the elements
        assertThat(back.getCandidates()).containsExactlyElementsOf(run.getCandidates());
        assertThat(back).usingRecursiveComparison().ignoringFields("candidates").isEqualTo(run);
    }

    @Test
    public void a_tombstone_stays_null_both_ways() {
        assertThat(serde.serialize("t", null)).isNull();
        assertThat(serde.deserialize("t", null)).isNull();
    }

    @Test
    public void a_record_written_with_the_released_v1_schema_still_reads() throws IOException {
        // given bytes written by "an older Recourse" with schemas/history/RetryCommand.v1.avsc
        Schema v1;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("schemas/history/RetryCommand.v1.avsc")) {
            v1 = new Schema.Parser().parse(in);
        }
        GenericRecord old = new GenericData.Record(v1);
        for (Schema.Field f : v1.getFields()) {
            old.put(f.name(), f.hasDefaultValue() ? GenericData.get().getDefaultValue(f) : null);
        }
        old.put("command_id", "c1");
        old.put("session_id", "s1");
        old.put("expected_generation", 2);
        old.put("chain_start_generation", 2);
        old.put("attempt", 1);
        old.put("max_attempts", 5);
        old.put("code", "provider_overloaded");
        old.put("rule_id", "r");
        old.put("retry_at", T0.toEpochMilli());
        old.put("issued_at", T0.toEpochMilli());
        ByteBuffer written = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1).encode(old);

        // when the current serde decodes them
        RetryCommand read = AvroSerde.of(RetryCommand.class).decode(Arrays.copyOfRange(written.array(), written.position(), written.limit()));

        // then the record is resolved into the current schema
        assertThat(read.getCommandId()).isEqualTo("c1");
        assertThat(read.getRetryAt()).isEqualTo(T0);
        assertThat(AvroSerde.of(RetryCommand.class).history()).hasSize(2);
        assertThat(read.getExpiresAt()).as("a field the old schema lacks reads as its default").isNull();
    }

    @Test
    public void bytes_written_with_an_unknown_schema_fail_with_a_serialization_error() {
        Schema other = SpecificData.get().getSchema(RetryCommand.class);
        GenericRecord r = new GenericData.Record(Schema.createRecord("Stranger", null, "x", false,
                List.of(new Schema.Field("a", Schema.create(Schema.Type.STRING)))));
        r.put("a", "b");
        ByteBuffer written;
        try {
            written = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), r.getSchema()).encode(r);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        byte[] bytes = Arrays.copyOfRange(written.array(), written.position(), written.limit());

        assertThat(other).isNotNull();
        assertThatThrownBy(() -> serde.decode(bytes)).isInstanceOf(SerializationException.class)
                .hasMessageContaining("Classification");
    }

    @Test
    public void bytes_without_the_header_fail_with_a_serialization_error() {
        assertThatThrownBy(() -> serde.decode(new byte[] {'{', '}'})).isInstanceOf(SerializationException.class);
    }
}
