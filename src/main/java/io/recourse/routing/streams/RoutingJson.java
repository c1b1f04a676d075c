package io.recourse.routing.streams;

import com.fasterxml.jackson.databind.JsonNode;
import io.recourse.ingress.DlqReason;
import io.recourse.ingress.StrictJson;
import io.recourse.kit.Admissions;
import io.recourse.routing.RoutingDispatchAck;
import io.recourse.routing.RunControl;
import io.recourse.routing.RunControlAction;
import io.recourse.routing.RunFinished;
import io.recourse.routing.RunRequest;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.DispatchAckReason;
import io.recourse.taxonomy.WireName;
import java.util.function.Supplier;

/**
 * Parses the routing owner's JSON inputs (DESIGN §7.1, §7.3) strictly, with {@link StrictJson}:
 * well-formed UTF-8, one JSON object, no duplicate member names; snake_case fields; ids non-blank
 * strings of at most {@value StrictJson#MAX_ID_LENGTH} characters without control characters;
 * {@code occurred_at} required RFC 3339 text; integers exact JSON integers in range
 * ({@code expected_attempt} ≥ 0, {@code prompt_generation} ≥ 0); enums by wire name; unknown
 * fields are ignored (a newer producer may add some).
 *
 * <p>{@code recourse.office.run-requests} carries RunRequest and RunFinished: an optional
 * {@code type} ({@code run_request} | {@code run_finished}) decides; without it a document with
 * {@code dynamic_profile_id} is a RunRequest, else a RunFinished.
 *
 * <p>Errors: {@link Rejection} with the ingress DLQ reason codes: {@code invalid_json} (not UTF-8,
 * not one JSON object, a duplicate member), {@code missing_field} (a required field is absent or
 * blank), {@code invalid_field} (wrong type, out of range, control characters, unknown wire name,
 * bad instant).
 */
public final class RoutingJson {

    private RoutingJson() {
    }

    /**
     * A RunRequest or RunFinished from its JSON bytes.
     *
     * @throws Rejection on a bad document
     */
    public static Object runRequestOrFinished(byte[] json) {
        return strict(() -> {
            JsonNode n = StrictJson.object(json);
            String type = StrictJson.optionalId(n, "type");
            boolean request = type == null ? n.hasNonNull("dynamic_profile_id") : switch (type) {
                case "run_request" -> true;
                case "run_finished" -> false;
                default -> throw new Rejection(DlqReason.INVALID_FIELD.wire(), "type: unknown value");
            };
            if (request) {
                return new RunRequest(StrictJson.id(n, "request_id"), StrictJson.id(n, "run_id"),
                        StrictJson.id(n, "workspace_id"), StrictJson.id(n, "dynamic_profile_id"),
                        StrictJson.optionalId(n, "task_id"), StrictJson.instant(n, "occurred_at"));
            }
            return new RunFinished(StrictJson.id(n, "run_id"), StrictJson.id(n, "workspace_id"),
                    StrictJson.instant(n, "occurred_at"));
        });
    }

    /**
     * A RunControl from its JSON bytes ({@code expected_attempt} is required, ≥ 0: a run parked
     * before its first launch is at attempt 0).
     *
     * @throws Rejection on a bad document
     */
    public static RunControl runControl(byte[] json) {
        return strict(() -> {
            JsonNode n = StrictJson.object(json);
            return new RunControl(StrictJson.id(n, "run_id"), StrictJson.id(n, "workspace_id"),
                    wire(RunControlAction.class, n, "action"),
                    StrictJson.integer(n, "expected_attempt", 0, Integer.MAX_VALUE), StrictJson.instant(n, "occurred_at"));
        });
    }

    /**
     * An RoutingDispatchAck from its JSON bytes ({@code prompt_generation} optional, ≥ 0).
     *
     * @throws Rejection on a bad document
     */
    public static RoutingDispatchAck dispatchAck(byte[] json) {
        return strict(() -> {
            JsonNode n = StrictJson.object(json);
            Integer generation = StrictJson.optionalInteger(n, "prompt_generation", 0, Integer.MAX_VALUE);
            return new RoutingDispatchAck(StrictJson.id(n, "command_id"), wire(AckStatus.class, n, "status"),
                    DispatchAckReason.fromInput(StrictJson.optionalText(n, "reason", StrictJson.MAX_TEXT_LENGTH)),
                    StrictJson.detail(n, "reason_detail"), StrictJson.id(n, "run_id"), StrictJson.id(n, "workspace_id"), StrictJson.optionalId(n, "session_id"),
                    generation, StrictJson.instant(n, "occurred_at"));
        });
    }

    private static <T> T strict(Supplier<T> parse) {
        try {
            return parse.get();
        } catch (StrictJson.Invalid e) {
            throw new Rejection(e.reason().wire(), e.getMessage());
        }
    }

    private static <E extends Enum<E> & WireName> E wire(Class<E> type, JsonNode n, String field) {
        String v = StrictJson.id(n, field);
        try {
            return WireName.parse(type, v);
        } catch (IllegalArgumentException e) {
            throw new Rejection(DlqReason.INVALID_FIELD.wire(), field + ": unknown value");
        }
    }

    /** A rejected input record: {@link #code()} becomes the DLQ's {@code recourse.error.code}. */
    public static final class Rejection extends Admissions.Rejection {

        public Rejection(String code, String message) {
            super(code, message);
        }
    }
}
