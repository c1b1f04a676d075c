package io.recourse.ingress;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.taxonomy.WireName;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Test-only reference: the tree-based {@link FrameParser} that came before the streaming
 * rewrite (commit 865741c), kept verbatim apart from its name and four later rules (the field
 * bounds of {@link FrameParser#checkBounds}, the nesting-depth message, RFC 3339 in full:
 * offsets to ±23:59 and leap seconds, read here with {@code LocalDateTime}, and the number bound
 * of {@code payload} and {@code turn_config}, checked here on the tree), so that
 * {@code FrameParserEquivalenceProperties} can check that the fast parser gives the same frame, or
 * the same reason and message, for every input.
 *
 * <p>Original Javadoc:
 * Parses and validates one record of {@code recourse.agent-frames} into a {@link Frame}
 * (DESIGN §3). Strict about the required fields and the types of known fields, lenient about
 * unknown fields. Checks, in this order: the raw size bound (before any parsing), the key's
 * syntax, JSON syntax (one object, nothing after it, no duplicate keys), the fields, the
 * routing identity of dynamic profiles, and the agreement of key and body.
 *
 * <p>The key is split at its <em>last</em> {@code /}: the left part must equal
 * {@code session_id} (which may itself contain {@code /}), the right part must be the decimal
 * form of {@code prompt_generation}.
 *
 * <p>Thread-safe and stateless apart from its configuration.
 */
final class ReferenceFrameParser {

    /** The default size bound of a frame value: 256 KiB (DESIGN §3). */
    static final int DEFAULT_MAX_BYTES = 256 * 1024;

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private static final Pattern RFC_3339 = Pattern.compile(
            "\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})");

    private final int maxBytes;

    /** A parser with the default size bound of 256 KiB. */
    ReferenceFrameParser() {
        this(DEFAULT_MAX_BYTES);
    }

    /**
     * @param maxBytes the largest accepted value in bytes (&gt; 0)
     * @throws IllegalArgumentException when {@code maxBytes} is not positive
     */
    ReferenceFrameParser(int maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("frame size bound must be positive, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** The configured size bound in bytes. */
    public int maxBytes() {
        return maxBytes;
    }

    /**
     * Parses one record.
     *
     * @param key   the record key {@code <session_id>/<prompt_generation>}
     * @param value the record value: UTF-8 JSON of the frame envelope
     * @return the validated frame
     * @throws FrameRejectedException with the {@link DlqReason} and a message naming the field;
     *                                never any other exception
     */
    public Frame parse(String key, byte[] value) throws FrameRejectedException {
        if (value == null) {
            throw new FrameRejectedException(DlqReason.INVALID_JSON, "frame value is null");
        }
        if (value.length > maxBytes) {
            throw new FrameRejectedException(DlqReason.OVERSIZED,
                    "frame value has " + value.length + " bytes, more than the bound of " + maxBytes);
        }
        int slash = key == null ? -1 : key.lastIndexOf('/');
        if (slash < 0) {
            throw new FrameRejectedException(DlqReason.INVALID_KEY,
                    key == null ? "record key is null" : "record key has no '/' (expected <session_id>/<prompt_generation>)");
        }
        String keySession = key.substring(0, slash);
        String keyGeneration = key.substring(slash + 1);
        if (keySession.isEmpty() || !isDecimal(keyGeneration)) {
            throw new FrameRejectedException(DlqReason.INVALID_KEY,
                    "record key is not <session_id>/<prompt_generation> with a non-empty session id and a decimal generation");
        }

        JsonNode root;
        try {
            root = MAPPER.readTree(value);
        } catch (IOException | RuntimeException e) {
            throw new FrameRejectedException(DlqReason.INVALID_JSON, FrameParser.invalidJson(e));
        }
        if (root == null || !root.isObject()) {
            throw new FrameRejectedException(DlqReason.INVALID_JSON, "frame value is not a JSON object");
        }

        String sessionId = requiredText(root, "session_id");
        int generation = requiredInt(root, "prompt_generation");
        long seq = requiredLong(root, "seq");
        Instant occurredAt = requiredInstant(root, "occurred_at");
        FrameSource source = requiredEnum(root, "source", FrameSource.class);
        JsonNode payload = required(root, "payload");
        if (!payload.isObject()) {
            throw invalid("payload", "must be a JSON object");
        }

        ProfileKind profileKind = optionalEnum(root, "profile_kind", ProfileKind.class);
        String workspaceId = optionalText(root, "workspace_id");
        String runId = optionalText(root, "run_id");
        String executionProfileId = optionalText(root, "execution_profile_id");
        Frame frame = new Frame(
                sessionId,
                generation,
                seq,
                occurredAt,
                source,
                Payload.of(payload),
                optionalText(root, "agent_type"),
                optionalText(root, "provider_id"),
                optionalText(root, "model_id"),
                profileKind,
                workspaceId,
                runId,
                executionProfileId,
                optionalText(root, "task_id"),
                optionalText(root, "agent_profile_id"),
                optionalEnum(root, "phase", Phase.class),
                optionalEnum(root, "prompt_origin", PromptOrigin.class),
                optionalText(root, "command_id"),
                optionalNonNegativeInt(root, "retry_of_generation"),
                optionalText(root, "prompt_digest"),
                optionalObject(root, "turn_config"),
                optionalBoolean(root, "resume_guarantee"));
        FrameParser.checkBounds(frame);
        numbersInRange("payload", payload);
        numbersInRange("turn_config", frame.turnConfig());

        if (profileKind == ProfileKind.DYNAMIC) {
            requireRoutingIdentity("workspace_id", workspaceId);
            requireRoutingIdentity("run_id", runId);
            requireRoutingIdentity("execution_profile_id", executionProfileId);
        }
        if (!keySession.equals(sessionId)) {
            throw new FrameRejectedException(DlqReason.KEY_MISMATCH,
                    "record key's session part (before the last '/') differs from field session_id");
        }
        if (!keyGeneration.equals(Integer.toString(generation))) {
            throw new FrameRejectedException(DlqReason.KEY_MISMATCH,
                    "record key's generation part (after the last '/') differs from field prompt_generation");
        }
        return frame;
    }

    /**
     * The number bound of DESIGN §3, on the tree and written independently of the parser's walk:
     * every integer's decimal form has at most 64 digits besides its sign, every other number is a
     * finite double.
     */
    private static void numbersInRange(String field, JsonNode node) throws FrameRejectedException {
        if (node == null) {
            return;
        }
        if (node.isIntegralNumber()) {
            if (node.bigIntegerValue().abs().toString().length() > 64) {
                throw invalid(field, InputBounds.NUMBER_RULE);
            }
        } else if (node.isNumber()) {
            if (Double.isInfinite(node.doubleValue()) || Double.isNaN(node.doubleValue())) {
                throw invalid(field, InputBounds.NUMBER_RULE);
            }
        }
        for (JsonNode child : node) {
            numbersInRange(field, child);
        }
    }

    private static void requireRoutingIdentity(String field, String value) throws FrameRejectedException {
        if (value == null || value.isBlank()) {
            throw new FrameRejectedException(DlqReason.MISSING_ROUTING_IDENTITY,
                    "field " + field + " is required when profile_kind is dynamic");
        }
    }

    private static boolean isDecimal(String s) {
        if (s.isEmpty() || s.length() > 10) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static JsonNode required(JsonNode root, String field) throws FrameRejectedException {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            throw new FrameRejectedException(DlqReason.MISSING_FIELD, "required field " + field + " is missing");
        }
        return node;
    }

    private static FrameRejectedException invalid(String field, String why) {
        return new FrameRejectedException(DlqReason.INVALID_FIELD, "field " + field + " " + why);
    }

    private static String requiredText(JsonNode root, String field) throws FrameRejectedException {
        JsonNode node = required(root, field);
        if (!node.isTextual() || node.asText().isEmpty()) {
            throw invalid(field, "must be a non-empty string");
        }
        return node.asText();
    }

    private static int requiredInt(JsonNode root, String field) throws FrameRejectedException {
        JsonNode node = required(root, field);
        if (!node.isIntegralNumber() || !node.canConvertToInt() || node.intValue() < 0) {
            throw invalid(field, "must be an integer between 0 and " + Integer.MAX_VALUE);
        }
        return node.intValue();
    }

    private static long requiredLong(JsonNode root, String field) throws FrameRejectedException {
        JsonNode node = required(root, field);
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < 0) {
            throw invalid(field, "must be an integer between 0 and " + Long.MAX_VALUE);
        }
        return node.longValue();
    }

    private static Instant requiredInstant(JsonNode root, String field) throws FrameRejectedException {
        JsonNode node = required(root, field);
        if (!node.isTextual()) {
            throw invalid(field, "must be an RFC 3339 date-time string");
        }
        // RFC 3339 §5.6: seconds and an offset are required; 't'/'z' may be lower case, 'T' may be a space.
        String text = node.asText();
        if (!RFC_3339.matcher(text).matches()) {
            throw invalid(field, "must be an RFC 3339 date-time with an offset, e.g. 2026-06-01T12:00:00Z");
        }
        text = text.toUpperCase(Locale.ROOT).replace(' ', 'T');
        // RFC 3339 in full (beyond java.time): offsets up to ±23:59 and a leap second at 23:59:60 UTC
        int tz = Math.max(text.indexOf('Z', 19), Math.max(text.indexOf('+', 19), text.indexOf('-', 19)));
        String local = text.substring(0, tz);
        String zone = text.substring(tz);
        int offsetSeconds = 0;
        if (!zone.equals("Z")) {
            int h = Integer.parseInt(zone.substring(1, 3));
            int m = Integer.parseInt(zone.substring(4, 6));
            if (h > 23 || m > 59) {
                throw invalid(field, "must be an RFC 3339 date-time with an offset, e.g. 2026-06-01T12:00:00Z");
            }
            offsetSeconds = (zone.charAt(0) == '-' ? -1 : 1) * (h * 3600 + m * 60);
        }
        boolean leap = local.substring(17, 19).equals("60");
        if (leap) {
            local = local.substring(0, 17) + "59" + local.substring(19);
        }
        try {
            java.time.LocalDateTime t = java.time.LocalDateTime.parse(local, DateTimeFormatter.ISO_LOCAL_DATE_TIME);
            java.time.LocalDateTime utc = t.minusSeconds(offsetSeconds);
            if (leap && (utc.getHour() != 23 || utc.getMinute() != 59)) {
                throw invalid(field, "must be an RFC 3339 date-time with an offset, e.g. 2026-06-01T12:00:00Z");
            }
            return utc.toInstant(java.time.ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw invalid(field, "must be an RFC 3339 date-time with an offset, e.g. 2026-06-01T12:00:00Z");
        }
    }

    private static <E extends Enum<E> & WireName> E requiredEnum(JsonNode root, String field, Class<E> type)
            throws FrameRejectedException {
        return toEnum(field, required(root, field), type);
    }

    private static <E extends Enum<E> & WireName> E optionalEnum(JsonNode root, String field, Class<E> type)
            throws FrameRejectedException {
        JsonNode node = root.get(field);
        return node == null || node.isNull() ? null : toEnum(field, node, type);
    }

    private static <E extends Enum<E> & WireName> E toEnum(String field, JsonNode node, Class<E> type)
            throws FrameRejectedException {
        if (node.isTextual()) {
            for (E e : type.getEnumConstants()) {
                if (e.wire().equals(node.asText())) {
                    return e;
                }
            }
        }
        StringBuilder allowed = new StringBuilder();
        for (E e : type.getEnumConstants()) {
            allowed.append(allowed.length() == 0 ? "" : ", ").append(e.wire());
        }
        throw invalid(field, "must be one of " + allowed);
    }

    private static String optionalText(JsonNode root, String field) throws FrameRejectedException {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw invalid(field, "must be a string");
        }
        return node.asText();
    }

    private static Integer optionalNonNegativeInt(JsonNode root, String field) throws FrameRejectedException {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt() || node.intValue() < 0) {
            throw invalid(field, "must be an integer between 0 and " + Integer.MAX_VALUE);
        }
        return node.intValue();
    }

    private static JsonNode optionalObject(JsonNode root, String field) throws FrameRejectedException {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw invalid(field, "must be a JSON object");
        }
        return node;
    }

    private static boolean optionalBoolean(JsonNode root, String field) throws FrameRejectedException {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return false;
        }
        if (!node.isBoolean()) {
            throw invalid(field, "must be a boolean");
        }
        return node.booleanValue();
    }
}
