package io.recourse.ingress;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Strict reading of the JSON control inputs (session controls, dispatch acks, run requests, run
 * controls, route configuration; DESIGN §6.3, §6.4, §7.1, §7.3): the bytes must be valid UTF-8
 * (decoded with {@link CodingErrorAction#REPORT}, never replaced by U+FFFD), one JSON object, with
 * no duplicate member names (Jackson {@link StreamReadFeature#STRICT_DUPLICATE_DETECTION}).
 * Field accessors are exact: a string is a JSON string (never a number), an integer a JSON integer
 * (never {@code "7"} or {@code 1.5}) within a stated range, an instant RFC 3339 text
 * ({@link Rfc3339}) from 1970-01-01 on (time-index keys are unsigned epoch milliseconds, DESIGN §2),
 * an id at most {@value #MAX_ID_LENGTH} UTF-16 code units without control characters.
 * Unknown members are ignored by the accessors (a newer producer may add some).
 *
 * <p>Errors: {@link Invalid} with {@link DlqReason#INVALID_JSON} (not UTF-8, not one object,
 * duplicate member), {@link DlqReason#MISSING_FIELD} (required member absent, null or blank) or
 * {@link DlqReason#INVALID_FIELD} (wrong type, out of range, bad characters); its message names the
 * field, never echoes its value.
 */
public final class StrictJson {

    /** The longest id (session, run, workspace, command, request, profile ids) accepted, in UTF-16 code units. */
    public static final int MAX_ID_LENGTH = 256;
    /** The longest optional free-text member (an ack's {@code reason}) accepted, in UTF-16 code units. */
    public static final int MAX_TEXT_LENGTH = 256;
    /** The earliest instant accepted: the epoch (time-index keys are unsigned epoch milliseconds). */
    public static final Instant MIN_INSTANT = Instant.EPOCH;

    /** The mapper the strict inputs share: duplicate member names are errors. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private StrictJson() {
    }

    /**
     * {@code bytes} decoded as UTF-8, strictly.
     *
     * @throws Invalid {@code invalid_json} when the bytes are not well-formed UTF-8
     */
    public static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new Invalid(DlqReason.INVALID_JSON, "not well-formed UTF-8");
        }
    }

    /**
     * One JSON object from {@code bytes}: strict UTF-8, no duplicate members.
     *
     * @throws Invalid {@code invalid_json} otherwise (a null value included)
     */
    public static JsonNode object(byte[] bytes) {
        if (bytes == null) {
            throw new Invalid(DlqReason.INVALID_JSON, "value is missing (null)");
        }
        return object(utf8(bytes));
    }

    /** One JSON object from {@code text}, duplicate members rejected. @throws Invalid {@code invalid_json} */
    public static JsonNode object(String text) {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            if (InputBounds.isTooDeep(e)) {
                throw new Invalid(DlqReason.INVALID_JSON, InputBounds.tooDeep("value"));
            }
            throw new Invalid(DlqReason.INVALID_JSON, "not JSON: " + e.getOriginalMessage());
        }
        if (tree == null || !tree.isObject()) {
            throw new Invalid(DlqReason.INVALID_JSON, "not a JSON object");
        }
        return tree;
    }

    /** A required id: a non-blank JSON string of at most {@value #MAX_ID_LENGTH} code units, no control characters. */
    public static String id(JsonNode n, String field) {
        String v = optionalText(n, field, MAX_ID_LENGTH);
        if (v == null || v.isBlank()) {
            throw new Invalid(DlqReason.MISSING_FIELD, field + " is missing or blank");
        }
        return v;
    }

    /** An optional id: absent/null → {@code null}; otherwise as {@link #id}. */
    public static String optionalId(JsonNode n, String field) {
        String v = optionalText(n, field, MAX_ID_LENGTH);
        if (v != null && v.isBlank()) {
            throw new Invalid(DlqReason.INVALID_FIELD, field + " must not be blank");
        }
        return v;
    }

    /** An optional JSON string of at most {@code maxLength} code units without control characters; absent/null → {@code null}. */
    public static String optionalText(JsonNode n, String field, int maxLength) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new Invalid(DlqReason.INVALID_FIELD, field + " must be a string");
        }
        String s = v.textValue();
        if (s.length() > maxLength) {
            throw new Invalid(DlqReason.INVALID_FIELD, field + " is longer than " + maxLength + " characters");
        }
        if (hasControl(s)) {
            throw new Invalid(DlqReason.INVALID_FIELD, field + " contains control characters");
        }
        return s;
    }

    /** Largest free-text detail read, in UTF-16 code units; the record sanitizes and cuts it further (DESIGN §9). */
    public static final int MAX_DETAIL_LENGTH = 4096;

    /**
     * An optional free-text detail (a dispatcher's {@code reason_detail}): absent/null → {@code null};
     * a JSON string, cut to {@value #MAX_DETAIL_LENGTH} code units (never rejected for its length or
     * characters: the sanitizer replaces what must not travel on).
     */
    public static String detail(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new Invalid(DlqReason.INVALID_FIELD, field + " must be a string");
        }
        String s = v.textValue();
        return s.length() > MAX_DETAIL_LENGTH ? s.substring(0, MAX_DETAIL_LENGTH) : s;
    }

    /** A required JSON integer in {@code min..max} (no string, no fraction, no exponent). */
    public static int integer(JsonNode n, String field, int min, int max) {
        Integer v = optionalInteger(n, field, min, max);
        if (v == null) {
            throw new Invalid(DlqReason.MISSING_FIELD, field + " is missing");
        }
        return v;
    }

    /** An optional JSON integer in {@code min..max}; absent/null → {@code null}. */
    public static Integer optionalInteger(JsonNode n, String field, int min, int max) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new Invalid(DlqReason.INVALID_FIELD, field + " must be an integer");
        }
        int i = v.intValue();
        if (i < min || i > max) {
            throw new Invalid(DlqReason.INVALID_FIELD, field + " must be " + min + ".." + max);
        }
        return i;
    }

    /** A required RFC 3339 instant (JSON string) not before {@link #MIN_INSTANT}. */
    public static Instant instant(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new Invalid(DlqReason.MISSING_FIELD, field + " is missing");
        }
        Instant t = v.isTextual() ? Rfc3339.parse(v.textValue()) : null;
        if (t == null) {
            throw new Invalid(DlqReason.INVALID_FIELD, field + " is not an RFC 3339 date-time");
        }
        if (t.isBefore(MIN_INSTANT)) {
            throw new Invalid(DlqReason.INVALID_FIELD, field + " is before 1970-01-01T00:00:00Z");
        }
        return t;
    }

    /** Whether {@code s} has an ISO control character (C0, DEL, C1). */
    public static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isISOControl(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** A rejected input: {@link #reason()} becomes the DLQ's {@code recourse.error.code}. */
    public static final class Invalid extends RuntimeException {

        private final DlqReason reason;

        public Invalid(DlqReason reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }

        public DlqReason reason() {
            return reason;
        }
    }
}
