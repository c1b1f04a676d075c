package io.recourse.routing.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.recourse.routing.RunControl;
import io.recourse.routing.RunControlAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The Office JSON inputs (DESIGN §7.1, §7.3) are strict: exact types, ranges, RFC 3339, clean ids, no duplicates, UTF-8. */
public class RoutingJsonTest {

    private static final String AT = "\"occurred_at\":\"2026-11-30T08:00:00Z\"";

    private static String control(String attempt, String runId, String at) {
        return "{\"run_id\":" + runId + ",\"workspace_id\":\"w1\",\"action\":\"retry_now\",\"expected_attempt\":" + attempt
                + (at == null ? "" : "," + at) + "}";
    }

    @Test
    public void aValidRunControlParses() {
        assertThat(RoutingJson.runControl(bytes(control("2", "\"r1\"", AT))))
                .isEqualTo(new RunControl("r1", "w1", RunControlAction.RETRY_NOW, 2, Instant.parse("2026-11-30T08:00:00Z")));
    }

    @Test
    public void attemptsAreExactNonNegativeIntegers() {
        for (String attempt : new String[] {"-5", "\"7\"", "1.5", "3.0", "1e1", "9999999999"}) {
            assertThat(code(() -> RoutingJson.runControl(bytes(control(attempt, "\"r1\"", AT))))).as(attempt).isEqualTo("invalid_field");
        }
    }

    @Test
    public void occurredAtIsRequiredRfc3339FromTheEpochOn() {
        assertThat(code(() -> RoutingJson.runControl(bytes(control("1", "\"r1\"", null))))).isEqualTo("missing_field");
        for (String at : new String[] {"\"occurred_at\":\"0000-01-01T00:00:00Z\"", "\"occurred_at\":1764489600000",
                "\"occurred_at\":\"yesterday\""}) {
            assertThat(code(() -> RoutingJson.runControl(bytes(control("1", "\"r1\"", at))))).as(at).isEqualTo("invalid_field");
            assertThat(code(() -> RoutingJson.dispatchAck(bytes("{\"command_id\":\"c\",\"status\":\"dispatched\",\"run_id\":\"r\","
                    + "\"workspace_id\":\"w\"," + at + "}")))).as(at).isEqualTo("invalid_field");
            assertThat(code(() -> RoutingJson.runRequestOrFinished(bytes("{\"run_id\":\"r\",\"workspace_id\":\"w\"," + at + "}"))))
                    .as(at).isEqualTo("invalid_field");
        }
    }

    @Test
    public void idsHaveNoControlCharactersAndABound() {
        for (String id : new String[] {"\"r\\u0000\"", "\"r\\u001b[31m\"", "\"" + "r".repeat(257) + "\"", "5"}) {
            assertThat(code(() -> RoutingJson.runControl(bytes(control("1", id, AT))))).as(id).isEqualTo("invalid_field");
        }
    }

    @Test
    public void generationsOfAnAckAreNonNegative() {
        assertThat(code(() -> RoutingJson.dispatchAck(bytes("{\"command_id\":\"c\",\"status\":\"dispatched\",\"run_id\":\"r\","
                + "\"workspace_id\":\"w\",\"prompt_generation\":-1," + AT + "}")))).isEqualTo("invalid_field");
    }

    @Test
    public void duplicateKeysAndInvalidUtf8AreInvalidJson() {
        assertThat(code(() -> RoutingJson.runControl(bytes(control("1", "\"r1\",\"run_id\":\"r2\"", AT))))).isEqualTo("invalid_json");
        byte[] latin1 = control("1", "\"r\u00e9\"", AT).getBytes(StandardCharsets.ISO_8859_1);
        assertThat(code(() -> RoutingJson.runControl(latin1))).isEqualTo("invalid_json");
    }

    private static String code(Runnable parse) {
        RoutingJson.Rejection e = catchThrowableOfType(RoutingJson.Rejection.class, parse::run);
        assertThat(e).as("rejected").isNotNull();
        return e.code();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
