package io.recourse.streams;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.recourse.WireName;
import io.recourse.DispatchAckReason;
import io.recourse.ingress.DlqReason;
import io.recourse.ingress.InputBounds;
import io.recourse.routing.AckStatus;
import io.recourse.routing.OfficeDispatchAck;
import io.recourse.routing.RunControl;
import io.recourse.routing.RunControlAction;
import io.recourse.routing.RunFinished;
import io.recourse.routing.RunRequest;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * Parses the routing owner's JSON inputs (DESIGN §7.1, §7.3) with Jackson: snake_case fields,
 * instants as RFC 3339 text with an offset or epoch milliseconds, enums by wire name; unknown
 * fields are ignored (a newer producer may add some).
 *
 * <p>{@code recourse.office.run-requests} carries RunRequest and RunFinished: an optional
 * {@code type} ({@code run_request} | {@code run_finished}) decides; without it a document with
 * {@code dynamic_profile_id} is a RunRequest, else a RunFinished.
 *
 * <p>Errors: {@link Rejection} with the ingress DLQ reason codes: {@code invalid_json} (not one
 * JSON object), {@code missing_field} (a required field is absent or blank), {@code invalid_field}
 * (wrong type, unknown wire name, bad instant).
 */
public final class RoutingJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private RoutingJson() {
    }

    /**
     * A RunRequest or RunFinished from its JSON bytes.
     *
     * @throws Rejection on a bad document
     */
    public static Object runRequestOrFinished(byte[] json) {
        JsonNode n = object(json);
        String type = optionalText(n, "type");
        boolean request = type == null ? n.hasNonNull("dynamic_profile_id") : switch (type) {
            case "run_request" -> true;
            case "run_finished" -> false;
            default -> throw new Rejection(DlqReason.INVALID_FIELD.wire(), "type: unknown value");
        };
        if (request) {
            return new RunRequest(text(n, "request_id"), text(n, "run_id"), text(n, "workspace_id"),
                    text(n, "dynamic_profile_id"), optionalText(n, "task_id"), instant(n, "occurred_at"));
        }
        return new RunFinished(text(n, "run_id"), text(n, "workspace_id"), instant(n, "occurred_at"));
    }

    /**
     * A RunControl from its JSON bytes ({@code expected_attempt} is required).
     *
     * @throws Rejection on a bad document
     */
    public static RunControl runControl(byte[] json) {
        JsonNode n = object(json);
        return new RunControl(text(n, "run_id"), text(n, "workspace_id"), wire(RunControlAction.class, n, "action"),
                integer(n, "expected_attempt"), instant(n, "occurred_at"));
    }

    /**
     * An OfficeDispatchAck from its JSON bytes.
     *
     * @throws Rejection on a bad document
     */
    public static OfficeDispatchAck dispatchAck(byte[] json) {
        JsonNode n = object(json);
        Integer generation = n.hasNonNull("prompt_generation") ? integer(n, "prompt_generation") : null;
        return new OfficeDispatchAck(text(n, "command_id"), wire(AckStatus.class, n, "status"),
                DispatchAckReason.fromInput(optionalText(n, "reason")), optionalText(n, "reason_detail"),
                text(n, "run_id"), text(n, "workspace_id"), optionalText(n, "session_id"), generation,
                instant(n, "occurred_at"));
    }

    private static JsonNode object(byte[] json) {
        if (json == null) {
            throw new Rejection(DlqReason.INVALID_JSON.wire(), "value is missing (null)");
        }
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            if (InputBounds.isTooDeep(e)) {
                throw new Rejection(DlqReason.INVALID_JSON.wire(), InputBounds.tooDeep("value"));
            }
            throw new Rejection(DlqReason.INVALID_JSON.wire(), "not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new Rejection(DlqReason.INVALID_JSON.wire(), "not JSON: " + e.getMessage());
        }
        if (tree == null || !tree.isObject()) {
            throw new Rejection(DlqReason.INVALID_JSON.wire(), "not a JSON object");
        }
        return tree;
    }

    private static String text(JsonNode n, String field) {
        String v = optionalText(n, field);
        if (v == null || v.isBlank()) {
            throw new Rejection(DlqReason.MISSING_FIELD.wire(), field + " is missing or blank");
        }
        return v;
    }

    /**
     * A string field, bounded as {@link InputBounds} says: ids by the id rule, {@code type},
     * {@code action}, {@code status} and {@code reason} by the name rule (their wire names are
     * checked after). The message names the field, never the value.
     */
    private static String optionalText(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new Rejection(DlqReason.INVALID_FIELD.wire(), field + " must be a string");
        }
        String s = v.asText();
        boolean name = NAMES.contains(field);
        if (!s.isBlank() && !(name ? InputBounds.isName(s) : InputBounds.isId(field, s))) {
            throw new Rejection(DlqReason.INVALID_FIELD.wire(),
                    name ? "field " + field + " " + InputBounds.NAME_RULE : InputBounds.invalidId(field));
        }
        return s;
    }

    /** String fields of a closed vocabulary or short code rather than an id. */
    private static final java.util.Set<String> NAMES = java.util.Set.of("type", "action", "status", "reason");

    private static int integer(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new Rejection(DlqReason.MISSING_FIELD.wire(), field + " is missing");
        }
        if (!v.canConvertToInt() || !v.isIntegralNumber()) {
            throw new Rejection(DlqReason.INVALID_FIELD.wire(), field + " must be an integer");
        }
        return v.intValue();
    }

    private static Instant instant(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new Rejection(DlqReason.MISSING_FIELD.wire(), field + " is missing");
        }
        if (v.isIntegralNumber()) {
            return Instant.ofEpochMilli(v.longValue());
        }
        try {
            return OffsetDateTime.parse(v.asText()).toInstant();
        } catch (DateTimeParseException e) {
            throw new Rejection(DlqReason.INVALID_FIELD.wire(), field + " is not an RFC 3339 instant");
        }
    }

    private static <E extends Enum<E> & WireName> E wire(Class<E> type, JsonNode n, String field) {
        String v = text(n, field);
        try {
            return WireName.parse(type, v);
        } catch (IllegalArgumentException e) {
            throw new Rejection(DlqReason.INVALID_FIELD.wire(), field + ": " + e.getMessage());
        }
    }

    /** A rejected input: {@link #code()} becomes the DLQ's {@code recourse.error.code}. */
    public static final class Rejection extends RuntimeException {

        private final String code;

        public Rejection(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        /** The snake_case DLQ reason. */
        public String code() {
            return code;
        }
    }
}
