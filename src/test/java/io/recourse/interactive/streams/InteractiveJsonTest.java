package io.recourse.interactive.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.recourse.interactive.ControlAction;
import io.recourse.interactive.InteractiveDispatchAck;
import io.recourse.interactive.SessionControl;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.DispatchAckReason;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The JSON inputs of DESIGN §6.3 / §6.4 parse into the policy's values, or are rejected with a DLQ reason. */
public class InteractiveJsonTest {

    private static final String AT = "\"occurred_at\":\"2026-11-30T08:00:00Z\"";

    @Test
    public void a_control_parses_with_snake_case_fields_and_wire_names() {
        SessionControl c = InteractiveJson.control(bytes(
                "{\"action\":\"cancel_retry\",\"session_id\":\"s/1\",\"expected_generation\":4,"
                        + "\"occurred_at\":\"2026-11-30T08:00:00Z\",\"ui\":\"kanban\"}"));

        assertThat(c).isEqualTo(new SessionControl(ControlAction.CANCEL_RETRY, "s/1", 4, Instant.parse("2026-11-30T08:00:00Z")));
    }

    @Test
    public void a_control_without_expected_generation_is_valid() {
        assertThat(InteractiveJson.control(bytes("{\"action\":\"start_fresh\",\"session_id\":\"s1\",\"occurred_at\":\"2026-11-30T08:00:00Z\"}")))
                .isEqualTo(new SessionControl(ControlAction.START_FRESH, "s1", null, Instant.parse("2026-11-30T08:00:00Z")));
    }

    @Test
    public void occurred_at_is_required_rfc_3339_text_with_any_offset() {
        assertThat(InteractiveJson.control(bytes(
                "{\"action\":\"retry_now\",\"session_id\":\"s1\",\"occurred_at\":\"2026-11-30T09:00:00+01:00\"}"))
                .occurredAt()).isEqualTo(Instant.parse("2026-11-30T08:00:00Z"));
        for (String at : new String[] {"", ",\"occurred_at\":null", ",\"occurred_at\":1764489600000",
                ",\"occurred_at\":\"0000-01-01T00:00:00Z\"", ",\"occurred_at\":\"1969-12-31T23:59:59Z\"",
                ",\"occurred_at\":\"2026-11-30 08:00\"", ",\"occurred_at\":\"2026-02-30T08:00:00Z\""}) {
            assertThat(code(() -> InteractiveJson.control(bytes("{\"action\":\"retry_now\",\"session_id\":\"s1\"" + at + "}"))))
                    .as(at).isEqualTo(InteractiveJson.INVALID_SESSION_CONTROL);
            assertThat(code(() -> InteractiveJson.ack(bytes("{\"command_id\":\"c1\",\"status\":\"dispatched\",\"session_id\":\"s1\"" + at + "}"))))
                    .as(at).isEqualTo(InteractiveJson.INVALID_DISPATCH_ACK);
        }
    }

    @Test
    public void generations_are_exact_non_negative_json_integers() {
        for (String g : new String[] {"-5", "\"7\"", "1.5", "7.0", "1e2", "2147483648", "true"}) {
            assertThat(code(() -> InteractiveJson.control(bytes("{\"action\":\"cancel_retry\",\"session_id\":\"s1\","
                    + "\"expected_generation\":" + g + "," + AT + "}")))).as(g).isEqualTo(InteractiveJson.INVALID_SESSION_CONTROL);
            assertThat(code(() -> InteractiveJson.ack(bytes("{\"command_id\":\"c1\",\"status\":\"dispatched\",\"session_id\":\"s1\","
                    + "\"prompt_generation\":" + g + "," + AT + "}")))).as(g).isEqualTo(InteractiveJson.INVALID_DISPATCH_ACK);
        }
        assertThat(InteractiveJson.control(bytes("{\"action\":\"cancel_retry\",\"session_id\":\"s1\",\"expected_generation\":0,"
                + AT + "}")).expectedGeneration()).isZero();
    }

    @Test
    public void ids_are_bounded_strings_without_control_characters() {
        for (String id : new String[] {"\"s\\u0000\"", "\"s\\n1\"", "\"\\u0085\"", "7", "\"" + "x".repeat(257) + "\""}) {
            assertThat(code(() -> InteractiveJson.control(bytes("{\"action\":\"cancel_retry\",\"session_id\":" + id + "," + AT + "}"))))
                    .as(id).isEqualTo(InteractiveJson.INVALID_SESSION_CONTROL);
            assertThat(code(() -> InteractiveJson.ack(bytes("{\"command_id\":" + id + ",\"status\":\"dispatched\",\"session_id\":\"s1\","
                    + AT + "}")))).as(id).isEqualTo(InteractiveJson.INVALID_DISPATCH_ACK);
        }
        assertThat(InteractiveJson.control(bytes("{\"action\":\"cancel_retry\",\"session_id\":\"" + "x".repeat(256) + "\"," + AT + "}"))
                .sessionId()).hasSize(256);
    }

    @Test
    public void duplicate_members_and_invalid_utf8_are_invalid_json() {
        assertThat(code(() -> InteractiveJson.control(bytes(
                "{\"action\":\"cancel_retry\",\"session_id\":\"s1\",\"session_id\":\"s2\"," + AT + "}"))))
                .isEqualTo(InteractiveJson.INVALID_JSON);
        byte[] latin1 = ("{\"action\":\"cancel_retry\",\"session_id\":\"s\u00e9\"," + AT + "}").getBytes(StandardCharsets.ISO_8859_1);
        assertThat(code(() -> InteractiveJson.control(latin1))).isEqualTo(InteractiveJson.INVALID_JSON);
        assertThat(code(() -> InteractiveJson.ack(latin1))).isEqualTo(InteractiveJson.INVALID_JSON);
    }

    @Test
    public void an_ack_parses_with_its_status_reason_and_generation() {
        InteractiveDispatchAck a = InteractiveJson.ack(bytes("{\"command_id\":\"c1\",\"status\":\"failed\",\"reason\":\"superseded\","
                + "\"session_id\":\"s1\",\"prompt_generation\":5,\"occurred_at\":\"2026-11-30T08:00:00Z\"}"));

        assertThat(a).isEqualTo(new InteractiveDispatchAck("c1", AckStatus.FAILED, DispatchAckReason.SUPERSEDED, "s1", 5,
                Instant.parse("2026-11-30T08:00:00Z")));
    }

    @Test
    public void bytes_that_are_not_a_json_object_are_invalid_json() {
        for (String bad : new String[] {"{\"action\":", "[1,2]", "\"text\"", ""}) {
            assertThat(code(() -> InteractiveJson.control(bytes(bad)))).as(bad).isEqualTo(InteractiveJson.INVALID_JSON);
        }
    }

    @Test
    public void a_control_with_an_unknown_action_or_no_session_is_an_invalid_session_control() {
        assertThat(code(() -> InteractiveJson.control(bytes("{\"action\":\"later\",\"session_id\":\"s1\"," + AT + "}"))))
                .isEqualTo(InteractiveJson.INVALID_SESSION_CONTROL);
        assertThat(code(() -> InteractiveJson.control(bytes("{\"action\":\"cancel_retry\"}"))))
                .isEqualTo(InteractiveJson.INVALID_SESSION_CONTROL);
        assertThat(code(() -> InteractiveJson.control(bytes("{\"action\":\"cancel_retry\",\"session_id\":\" \"}"))))
                .isEqualTo(InteractiveJson.INVALID_SESSION_CONTROL);
        assertThat(code(() -> InteractiveJson.control(bytes(
                "{\"action\":\"cancel_retry\",\"session_id\":\"s1\",\"expected_generation\":\"four\"}"))))
                .isEqualTo(InteractiveJson.INVALID_SESSION_CONTROL);
    }

    @Test
    public void an_ack_with_an_unknown_status_or_no_command_id_is_an_invalid_dispatch_ack() {
        assertThat(code(() -> InteractiveJson.ack(bytes("{\"command_id\":\"c1\",\"status\":\"maybe\",\"session_id\":\"s1\"}"))))
                .isEqualTo(InteractiveJson.INVALID_DISPATCH_ACK);
        assertThat(code(() -> InteractiveJson.ack(bytes("{\"status\":\"dispatched\",\"session_id\":\"s1\"}"))))
                .isEqualTo(InteractiveJson.INVALID_DISPATCH_ACK);
    }

    private static String code(Runnable parse) {
        InteractiveJson.InputRejection e = catchThrowableOfType(InteractiveJson.InputRejection.class, parse::run);
        assertThat(e).as("rejected").isNotNull();
        return e.code();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
