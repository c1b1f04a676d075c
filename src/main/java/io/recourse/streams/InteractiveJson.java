package io.recourse.streams;

import io.recourse.ingress.DlqReason;
import io.recourse.ingress.InputBounds;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.recourse.interactive.KanbanDispatchAck;
import io.recourse.interactive.SessionControl;
import java.io.IOException;

/**
 * Parses the interactive owner's JSON inputs (DESIGN §6.3, §6.4) with Jackson into the policy's
 * {@link SessionControl} and {@link KanbanDispatchAck}. Field names are snake_case; instants are
 * RFC 3339 text (UTC offset) or epoch milliseconds; enums use their wire names; unknown fields are
 * ignored (a newer producer may add some).
 *
 * <p>Errors: {@link InputRejection} with code {@link #INVALID_JSON} when the bytes are not one
 * JSON object, or {@link #INVALID_SESSION_CONTROL} / {@link #INVALID_DISPATCH_ACK} when a
 * required field ({@code action}/{@code status}, {@code session_id}, {@code command_id}) is
 * missing or blank, or a field has the wrong type or an unknown wire name.
 */
public final class InteractiveJson {

    /** DLQ reason: the value is not a JSON object. */
    public static final String INVALID_JSON = "invalid_json";
    /** DLQ reason: a JSON object that is not a valid SessionControl. */
    public static final String INVALID_SESSION_CONTROL = "invalid_session_control";
    /** DLQ reason: a JSON object that is not a valid KanbanDispatchAck. */
    public static final String INVALID_DISPATCH_ACK = "invalid_dispatch_ack";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.READ_DATE_TIMESTAMPS_AS_NANOSECONDS) // a number is epoch milliseconds
            .build();

    private InteractiveJson() {
    }

    /**
     * A SessionControl from its JSON bytes.
     *
     * @throws InputRejection with {@link #INVALID_JSON} or {@link #INVALID_SESSION_CONTROL}
     */
    public static SessionControl control(byte[] json) {
        SessionControl c = bind(json, SessionControl.class, INVALID_SESSION_CONTROL);
        requireText(c.sessionId(), "session_id", INVALID_SESSION_CONTROL);
        requireId(c.sessionId(), "session_id");
        return c;
    }

    /**
     * A KanbanDispatchAck from its JSON bytes.
     *
     * @throws InputRejection with {@link #INVALID_JSON} or {@link #INVALID_DISPATCH_ACK}
     */
    public static KanbanDispatchAck ack(byte[] json) {
        KanbanDispatchAck a = bind(json, KanbanDispatchAck.class, INVALID_DISPATCH_ACK);
        requireText(a.sessionId(), "session_id", INVALID_DISPATCH_ACK);
        requireText(a.commandId(), "command_id", INVALID_DISPATCH_ACK);
        requireId(a.sessionId(), "session_id");
        requireId(a.commandId(), "command_id");
        if (a.reason() != null && !InputBounds.isName(a.reason())) {
            throw new InputRejection(DlqReason.INVALID_FIELD.wire(), "field reason " + InputBounds.NAME_RULE);
        }
        return a;
    }

    private static <T> T bind(byte[] json, Class<T> type, String invalidCode) {
        if (json == null) {
            throw new InputRejection(INVALID_JSON, "value is missing (null)");
        }
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            if (InputBounds.isTooDeep(e)) {
                throw new InputRejection(INVALID_JSON, InputBounds.tooDeep("value"));
            }
            throw new InputRejection(INVALID_JSON, "not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InputRejection(INVALID_JSON, "not JSON: " + e.getMessage());
        }
        if (tree == null || !tree.isObject()) {
            throw new InputRejection(INVALID_JSON, "not a JSON object");
        }
        try {
            return MAPPER.treeToValue(tree, type);
        } catch (JsonProcessingException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            String message = cause == e ? e.getOriginalMessage() : cause.getMessage();
            throw new InputRejection(invalidCode, "not a " + type.getSimpleName() + ": " + message);
        } catch (IllegalArgumentException e) {
            throw new InputRejection(invalidCode, "not a " + type.getSimpleName() + ": " + e.getMessage());
        }
    }

    private static void requireText(String value, String field, String code) {
        if (value == null || value.isBlank()) {
            throw new InputRejection(code, field + " is missing or blank");
        }
    }

    /** The id bounds of {@link InputBounds}: reason {@code invalid_field}, the field named, never the value. */
    private static void requireId(String value, String field) {
        if (!InputBounds.isId(field, value)) {
            throw new InputRejection(DlqReason.INVALID_FIELD.wire(), InputBounds.invalidId(field));
        }
    }

    /** A rejected input record: {@link #code()} becomes the DLQ's {@code recourse.error.code}. */
    public static final class InputRejection extends RuntimeException {

        private final String code;

        public InputRejection(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        /** The snake_case DLQ reason. */
        public String code() {
            return code;
        }
    }
}
