package io.recourse.interactive.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.avro.SessionStateValue;
import io.recourse.interactive.ControlAction;
import io.recourse.interactive.Disposition;
import io.recourse.interactive.InteractiveDispatchAck;
import io.recourse.interactive.RecoveryReason;
import io.recourse.interactive.RecoveryState;
import io.recourse.interactive.RecoveryStatus;
import io.recourse.interactive.RetryCommand;
import io.recourse.interactive.SessionControl;
import io.recourse.interactive.SessionState;
import io.recourse.kit.AvroSerde;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.DispatchAckReason;
import io.recourse.taxonomy.ErrorClass;
import java.time.Instant;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** DESIGN §6.5 records and the interactive store value survive the Avro round trip, field by field. */
public class InteractiveAvroTest {

    public static final Instant AT = Instant.parse("2026-11-30T08:00:05.123Z");

    @Test
    public void a_retry_command_round_trips_through_its_serde() {
        RetryCommand command = new RetryCommand("cmd-1", "s1", 3, 1, 2, 5, Code.PROVIDER_OVERLOADED, "rule.x.v1",
                "digest-p", "digest-c", "agent-7", "exec-3", "claude-sonnet-4", AT, AT.plusMillis(250));
        AvroSerde<io.recourse.avro.RetryCommand> serde = AvroSerde.of(io.recourse.avro.RetryCommand.class);

        RetryCommand back = InteractiveAvro.fromAvro(serde.decode(serde.encode(InteractiveAvro.toAvro(command, java.time.Duration.ofSeconds(30)))));

        assertThat(back).isEqualTo(command);
    }

    @Test
    public void a_recovery_state_round_trips_through_its_serde_with_class_as_the_wire_field() {
        RecoveryState state = new RecoveryState("s1", 4, RecoveryStatus.MANUAL, Code.RATE_LIMITED, ErrorClass.TRANSIENT,
                Disposition.MANUAL, 2, 5, null, "anthropic", "claude", "rule.y.v1", RecoveryReason.DISPATCH_UNCONFIRMED, AT);
        AvroSerde<io.recourse.avro.RecoveryState> serde = AvroSerde.of(io.recourse.avro.RecoveryState.class);

        io.recourse.avro.RecoveryState avro = InteractiveAvro.toAvro(state);

        assertThat(avro.get("class")).isEqualTo("transient");
        assertThat(InteractiveAvro.fromAvro(serde.decode(serde.encode(avro)))).isEqualTo(state);
    }

    @Test
    public void a_quota_reset_and_its_remediation_round_trip_and_a_v1_record_reads_without_them() throws Exception {
        RecoveryState state = new RecoveryState("s1", 4, RecoveryStatus.MANUAL, Code.QUOTA_LIMITED, ErrorClass.HARD,
                Disposition.MANUAL, 0, 5, null, "anthropic", "claude", "rule.q.v1", RecoveryReason.USER_ACTION_REQUIRED, AT,
                AT.plusSeconds(3600), io.recourse.taxonomy.Remediation.WAIT_FOR_RESET);
        AvroSerde<io.recourse.avro.RecoveryState> serde = AvroSerde.of(io.recourse.avro.RecoveryState.class);

        io.recourse.avro.RecoveryState avro = InteractiveAvro.toAvro(state);
        assertThat(avro.get("remediation")).isEqualTo("wait_for_reset");
        assertThat(InteractiveAvro.fromAvro(serde.decode(serde.encode(avro)))).isEqualTo(state);

        // a record written by the previous release (schemas/history/RecoveryState.v1.avsc) still reads
        Schema v1;
        try (var in = getClass().getClassLoader().getResourceAsStream("schemas/history/RecoveryState.v1.avsc")) {
            v1 = new Schema.Parser().parse(in);
        }
        org.apache.avro.generic.GenericRecord old = new org.apache.avro.generic.GenericData.Record(v1);
        for (Schema.Field f : v1.getFields()) {
            old.put(f.name(), avro.get(f.name()) instanceof java.time.Instant i ? i.toEpochMilli() : avro.get(f.name()));
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        org.apache.avro.io.BinaryEncoder enc = org.apache.avro.io.EncoderFactory.get().binaryEncoder(bytes, null);
        new org.apache.avro.generic.GenericDatumWriter<org.apache.avro.generic.GenericRecord>(v1).write(old, enc);
        enc.flush();
        io.recourse.avro.RecoveryState read = new org.apache.avro.specific.SpecificDatumReader<io.recourse.avro.RecoveryState>(
                v1, io.recourse.avro.RecoveryState.getClassSchema())
                .read(null, org.apache.avro.io.DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
        assertThat(read.getResetAt()).isNull();
        assertThat(read.getRemediation()).isNull();
        assertThat(read.getRuleId()).isEqualTo("rule.q.v1");
    }

    @Test
    public void a_session_state_with_a_chain_round_trips_through_the_store_serde() {
        SessionState state = new SessionState("s1", 3, 2, AT, RecoveryStatus.DISPATCHING, null, Code.MODEL_CAPACITY,
                "rule.z.v1", "anthropic", "claude", 3, "p3", "c3",
                new SessionState.Chain(1, 2, 2, "cmd-2", AT, AT.plusSeconds(1), AT.plusSeconds(31), null, "p1", "c1",
                        "agent-7", "exec-3", "claude"), AT.plusSeconds(7200));
        AvroSerde<SessionStateValue> serde = AvroSerde.of(SessionStateValue.class);

        assertThat(InteractiveAvro.fromAvro(serde.decode(serde.encode(InteractiveAvro.toAvro(state))))).isEqualTo(state);
    }

    @Test
    public void an_idle_session_state_round_trips_without_a_chain() {
        SessionState state = SessionState.initial("s1", AT);

        assertThat(InteractiveAvro.fromAvro(InteractiveAvro.toAvro(state))).isEqualTo(state);
    }

    @Test
    public void controls_and_acks_round_trip_through_their_repartition_values() {
        SessionControl control = new SessionControl(ControlAction.RETRY_NOW, "s1", 4, AT);
        InteractiveDispatchAck ack = new InteractiveDispatchAck("cmd-1", AckStatus.FAILED, DispatchAckReason.SUPERSEDED, "s1", null, AT);

        assertThat(InteractiveAvro.fromAvro(InteractiveAvro.toAvro(control))).isEqualTo(control);
        assertThat(InteractiveAvro.fromAvro(InteractiveAvro.toAvro(ack))).isEqualTo(ack);
    }

    @Test
    public void the_records_carry_every_field_of_design_6_5() {
        Schema command = io.recourse.avro.RetryCommand.getClassSchema();
        Schema state = io.recourse.avro.RecoveryState.getClassSchema();

        assertThat(command.getFields()).extracting(Schema.Field::name).containsExactly("command_id", "session_id",
                "expected_generation", "chain_start_generation", "attempt", "max_attempts", "code", "rule_id",
                "prompt_digest", "turn_config_digest", "agent_profile_id", "execution_profile_id", "model_id",
                "retry_at", "issued_at", "expires_at");
        assertThat(state.getFields()).extracting(Schema.Field::name).containsExactly("session_id", "generation",
                "status", "code", "class", "disposition", "attempt", "max_attempts", "retry_at", "provider_label",
                "model_label", "rule_id", "reason", "updated_at", "reset_at", "remediation");
    }
}
