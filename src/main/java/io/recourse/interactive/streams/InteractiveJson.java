package io.recourse.interactive.streams;

import com.fasterxml.jackson.databind.JsonNode;
import io.recourse.ingress.DlqReason;
import io.recourse.ingress.StrictJson;
import io.recourse.interactive.ControlAction;
import io.recourse.interactive.InteractiveDispatchAck;
import io.recourse.interactive.SessionControl;
import io.recourse.kit.Admissions;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.DispatchAckReason;
import io.recourse.taxonomy.WireName;
import java.util.function.Supplier;

/**
 * Parses the interactive owner's JSON inputs (DESIGN §6.3, §6.4) strictly, with {@link StrictJson},
 * into the policy's {@link SessionControl} and {@link InteractiveDispatchAck}: well-formed UTF-8, one
 * JSON object, no duplicate member names; snake_case fields; ids ({@code session_id},
 * {@code command_id}) non-blank strings of at most {@value StrictJson#MAX_ID_LENGTH} characters
 * without control characters; generations exact JSON integers ≥ 0; {@code occurred_at} required
 * RFC 3339 text (from 1970 on); enums by wire name; unknown fields are ignored (a newer producer
 * may add some).
 *
 * <p>Errors: {@link InputRejection} with code {@link #INVALID_JSON} when the bytes are not
 * UTF-8 or not one JSON object or repeat a member, or {@link #INVALID_SESSION_CONTROL} /
 * {@link #INVALID_DISPATCH_ACK} when a required field ({@code action}/{@code status},
 * {@code session_id}, {@code command_id}, {@code occurred_at}) is missing or blank, or a field has
 * the wrong type, an out-of-range value, control characters or an unknown wire name.
 */
public final class InteractiveJson {

    /** DLQ reason: the value is not a JSON object. */
    public static final String INVALID_JSON = "invalid_json";
    /** DLQ reason: a JSON object that is not a valid SessionControl. */
    public static final String INVALID_SESSION_CONTROL = "invalid_session_control";
    /** DLQ reason: a JSON object that is not a valid InteractiveDispatchAck. */
    public static final String INVALID_DISPATCH_ACK = "invalid_dispatch_ack";

    private InteractiveJson() {
    }

    /**
     * A SessionControl from its JSON bytes.
     *
     * @throws InputRejection with {@link #INVALID_JSON} or {@link #INVALID_SESSION_CONTROL}
     */
    public static SessionControl control(byte[] json) {
        return strict(INVALID_SESSION_CONTROL, () -> {
            JsonNode n = StrictJson.object(json);
            return new SessionControl(wire(ControlAction.class, n, "action"), StrictJson.id(n, "session_id"),
                    StrictJson.optionalInteger(n, "expected_generation", 0, Integer.MAX_VALUE),
                    StrictJson.instant(n, "occurred_at"));
        });
    }

    /**
     * A InteractiveDispatchAck from its JSON bytes.
     *
     * @throws InputRejection with {@link #INVALID_JSON} or {@link #INVALID_DISPATCH_ACK}
     */
    public static InteractiveDispatchAck ack(byte[] json) {
        return strict(INVALID_DISPATCH_ACK, () -> {
            JsonNode n = StrictJson.object(json);
            return new InteractiveDispatchAck(StrictJson.id(n, "command_id"), wire(AckStatus.class, n, "status"),
                    DispatchAckReason.fromInput(StrictJson.optionalText(n, "reason", StrictJson.MAX_TEXT_LENGTH)),
                    StrictJson.detail(n, "reason_detail"), StrictJson.id(n, "session_id"),
                    StrictJson.optionalInteger(n, "prompt_generation", 0, Integer.MAX_VALUE),
                    StrictJson.instant(n, "occurred_at"));
        });
    }

    private static <T> T strict(String invalidCode, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (StrictJson.Invalid e) {
            String code = e.reason() == DlqReason.INVALID_JSON ? INVALID_JSON : invalidCode;
            throw new InputRejection(code, e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new InputRejection(invalidCode, "unknown wire name");
        }
    }

    private static <E extends Enum<E> & WireName> E wire(Class<E> type, JsonNode n, String field) {
        return WireName.parse(type, StrictJson.id(n, field));
    }

    /** A rejected input record: {@link #code()} becomes the DLQ's {@code recourse.error.code}. */
    public static final class InputRejection extends Admissions.Rejection {

        public InputRejection(String code, String message) {
            super(code, message);
        }
    }
}
