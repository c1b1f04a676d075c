package io.recourse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.ErrorClass;
import io.recourse.taxonomy.WireName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One line of the observed corpus ({@code src/test/resources/corpus/observed/cases-*.jsonl}, format
 * in that folder's {@code README.md}): a real failure, or a look-alike that must stay
 * {@code completed}, as one agent surfaced it. {@link ObservedCaseRenderer} turns it into the
 * DESIGN §3 frame envelopes of one whole turn.
 *
 * <p>{@link #parse(JsonNode)} is strict: every field of the README's table is known, the required
 * ones ({@link #REQUIRED}) must be present and non-null, the nullable ones may be absent (=
 * {@code null}), an unknown field is an error (so a misspelt {@code error_code} never silently
 * defaults), enumerations are closed, strings are bounded, the {@code expected} class is the DESIGN
 * §5.1 class of its code ({@code {null, null}} for negatives), and {@code split} must be the one the
 * README's rule gives for {@code source_report} ({@link #splitOf(String)}), or {@code test} for a
 * {@code holdout: true} case (collected after the rules were written, from a report no earlier
 * case uses). Every problem is a
 * {@link CaseException} naming the field.
 *
 * @param id          {@code obs-<group>-<nnn>}
 * @param negative    {@code kind: negative} (a look-alike that must stay completed)
 * @param provider    provider id, or {@code null} when unknown
 * @param model       model id, or {@code null}
 * @param preStart    {@code phase: pre_start} (before the {@code session/prompt} request)
 * @param text        the verbatim error text (placeholders for secrets), 1..{@value #MAX_TEXT} characters
 * @param status      HTTP status (100..599), or {@code null}; required for {@link Surface#HTTP}
 * @param headers     HTTP response headers (lower-case names, string values), empty when absent
 * @param exitCode    exit code of {@code exit} (a signed 32-bit code, or a Windows status up to
 *                    {@value #MAX_EXIT_CODE}), or {@code null}
 * @param exitSignal  signal name of {@code exit}, or {@code null}
 * @param hasExit     the line had a non-null {@code exit} object
 * @param errorCode   JSON-RPC error code, or {@code null} (the renderer defaults it to −32603)
 * @param stopReason  the {@code stopReason} after a final chunk, or {@code null} ({@code end_turn})
 * @param expected    the DESIGN §5.1 code, {@code null} for negatives
 * @param timingHint  the timing hint as it appears in {@code text}, or {@code null} (never rendered separately)
 * @param split       {@code dev} or {@code test}
 */
public record ObservedCase(
        String id,
        boolean negative,
        String sourceUrl,
        String sourceReport,
        String agent,
        String agentType,
        String provider,
        String model,
        Surface surface,
        boolean preStart,
        String text,
        Integer status,
        Map<String, String> headers,
        boolean hasExit,
        Long exitCode,
        String exitSignal,
        Integer errorCode,
        String stopReason,
        Code expected,
        String why,
        String timingHint,
        String split) {

    /** Characters of {@code text} at most (the rendered frame stays far below the 256 KiB frame bound). */
    public static final int MAX_TEXT = 32 * 1024;
    /** Largest exit code: an unsigned 32-bit Windows status such as {@code 3221225781} (0xC0000135). */
    public static final long MAX_EXIT_CODE = 0xFFFFFFFFL;
    /** Characters of the other strings at most. */
    public static final int MAX_FIELD = 1024;

    /** How the agent surfaced the text (the README's surface table). */
    public enum Surface implements WireName {
        ACP_ERROR, STDERR_EXIT, EXIT_ONLY, FINAL_CHUNK, HTTP, TOOL_RESULT, ANSWER, THOUGHT, SESSION_LOAD_REPLAY;

        /** The surfaces only a negative may use: the text sits where no failure is read. */
        public boolean negativeOnly() {
            return this == TOOL_RESULT || this == ANSWER || this == THOUGHT || this == SESSION_LOAD_REPLAY;
        }

        @Override
        public String wire() {
            return WireName.of(this);
        }
    }

    /** A line that does not follow the case format; {@link #field()} names the field at fault. */
    public static final class CaseException extends IllegalArgumentException {
        private final String field;

        CaseException(String field, String message) {
            super("field '" + field + "': " + message);
            this.field = field;
        }

        /** The field at fault ({@code (line)} when the line itself is not an object). */
        public String field() {
            return field;
        }
    }

    /** Fields that must be present and non-null. */
    public static final List<String> REQUIRED = List.of("id", "kind", "source_url", "source_report", "agent",
            "agent_type", "surface", "phase", "text", "expected", "why", "split");
    /** Fields that may be absent or {@code null}. */
    public static final List<String> NULLABLE = List.of("provider", "model", "status", "headers", "exit",
            "error_code", "stop_reason", "timing_hint", "holdout");

    /** The README's products. */
    public static final Set<String> AGENTS = Set.of("claude-code", "codex", "gemini-cli", "opencode", "goose",
            "cursor-cli", "copilot-cli", "qwen-code", "aider", "cline", "continue", "amp", "crush", "kiro", "roo-code",
            "zed", "other");
    /** The README's adapter ids. */
    public static final Set<String> AGENT_TYPES = Set.of("claude-acp", "codex-acp", "gemini-cli", "opencode-acp",
            "goose-acp", "cursor-acp", "copilot-acp", "qwen-code", "aider", "cline", "continue", "amp-acp", "crush",
            "kiro-cli", "roo-code", "zed-acp");
    /** ACP stop reasons. */
    public static final Set<String> STOP_REASONS = Set.of("end_turn", "max_tokens", "max_turn_requests", "refusal",
            "cancelled");

    private static final Pattern ID = Pattern.compile("obs-[a-z0-9]+(?:-[a-z0-9]+)*-[0-9]{3,6}");
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}");
    private static final Pattern HEADER_NAME = Pattern.compile("[a-z0-9!#$%&'*+.^_`|~-]{1,128}");
    private static final Pattern SIGNAL = Pattern.compile("SIG[A-Z0-9]{1,12}");
    private static final Set<String> KNOWN;

    static {
        java.util.HashSet<String> known = new java.util.HashSet<>(REQUIRED);
        known.addAll(NULLABLE);
        KNOWN = Set.copyOf(known);
    }

    public ObservedCase {
        headers = headers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /** The expected class (DESIGN §5.1), {@code null} for negatives. */
    public ErrorClass expectedClass() {
        return expected == null ? null : expected.errorClass();
    }

    /**
     * The split of a source report (README "Split"): {@code test} when the first 8 hex digits of
     * SHA-256(UTF-8 {@code sourceReport}) read as an unsigned integer are ≡ 0 (mod 3), else {@code dev}.
     */
    public static String splitOf(String sourceReport) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(sourceReport.getBytes(StandardCharsets.UTF_8));
            long first = ((h[0] & 0xffL) << 24) | ((h[1] & 0xffL) << 16) | ((h[2] & 0xffL) << 8) | (h[3] & 0xffL);
            return first % 3 == 0 ? "test" : "dev";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    /**
     * Reads one case line.
     *
     * @throws CaseException naming the field at fault
     */
    public static ObservedCase parse(JsonNode n) {
        if (n == null || !n.isObject()) {
            throw new CaseException("(line)", "a case line must be a JSON object");
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!KNOWN.contains(f)) {
                throw new CaseException(f, "unknown field (the case format has " + String.join(", ", REQUIRED) + ", "
                        + String.join(", ", NULLABLE) + ")");
            }
        }
        for (String f : REQUIRED) {
            if (!n.hasNonNull(f)) {
                throw new CaseException(f, "missing (required)");
            }
        }
        String id = string(n, "id", MAX_FIELD);
        if (!ID.matcher(id).matches()) {
            throw new CaseException("id", "'" + id + "' is not obs-<group>-<nnn>");
        }
        String kind = string(n, "kind", MAX_FIELD);
        if (!kind.equals("failure") && !kind.equals("negative")) {
            throw new CaseException("kind", "'" + kind + "' is not failure or negative");
        }
        boolean negative = kind.equals("negative");
        String sourceUrl = string(n, "source_url", MAX_FIELD);
        if (!sourceUrl.startsWith("https://") && !sourceUrl.startsWith("http://")) {
            throw new CaseException("source_url", "must be an http(s) URL");
        }
        String sourceReport = string(n, "source_report", MAX_FIELD);
        String agent = oneOf(n, "agent", AGENTS);
        String agentType = oneOf(n, "agent_type", AGENT_TYPES);
        String provider = token(n, "provider");
        String model = n.hasNonNull("model") ? printable(n, "model") : null;
        Surface surface = enumValue(n, "surface", Surface.class);
        String phase = string(n, "phase", MAX_FIELD);
        if (!phase.equals("pre_start") && !phase.equals("post_start")) {
            throw new CaseException("phase", "'" + phase + "' is not pre_start or post_start");
        }
        boolean preStart = phase.equals("pre_start");
        String text = string(n, "text", MAX_TEXT);
        Integer status = integer(n, "status", 100, 599);
        Map<String, String> headers = headers(n);
        JsonNode exit = n.get("exit");
        boolean hasExit = exit != null && !exit.isNull();
        Long exitCode = null;
        String exitSignal = null;
        if (hasExit) {
            if (!exit.isObject()) {
                throw new CaseException("exit", "must be {code, signal} or null");
            }
            for (Iterator<String> it = exit.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!f.equals("code") && !f.equals("signal")) {
                    throw new CaseException("exit." + f, "unknown field (exit is {code, signal})");
                }
            }
            JsonNode code = exit.get("code");
            if (code != null && !code.isNull()) {
                if (!code.isIntegralNumber() || !code.canConvertToLong() || code.longValue() < Integer.MIN_VALUE
                        || code.longValue() > MAX_EXIT_CODE) {
                    throw new CaseException("exit.code", "must be an integer between " + Integer.MIN_VALUE + " and "
                            + MAX_EXIT_CODE + " (a Windows status is unsigned), or null");
                }
                exitCode = code.longValue();
            }
            JsonNode sig = exit.get("signal");
            if (sig != null && !sig.isNull()) {
                if (!sig.isTextual() || !SIGNAL.matcher(sig.asText()).matches()) {
                    throw new CaseException("exit.signal", "must be a signal name such as SIGKILL, or null");
                }
                exitSignal = sig.asText();
            }
        }
        Integer errorCode = integer(n, "error_code", Integer.MIN_VALUE, Integer.MAX_VALUE);
        String stopReason = null;
        if (n.hasNonNull("stop_reason")) {
            stopReason = oneOf(n, "stop_reason", STOP_REASONS);
        }
        JsonNode exp = n.get("expected");
        if (!exp.isObject() || !exp.has("code") || !exp.has("class") || exp.size() != 2) {
            throw new CaseException("expected", "must be exactly {code, class}");
        }
        Code code = null;
        if (!exp.get("code").isNull()) {
            if (!exp.get("code").isTextual()) {
                throw new CaseException("expected.code", "must be a DESIGN §5.1 code or null");
            }
            try {
                code = Code.fromWire(exp.get("code").asText());
            } catch (IllegalArgumentException e) {
                throw new CaseException("expected.code", "'" + exp.get("code").asText() + "' is not a DESIGN §5.1 code");
            }
        }
        JsonNode cls = exp.get("class");
        if (code == null) {
            if (!cls.isNull()) {
                throw new CaseException("expected.class", "must be null when the code is null");
            }
        } else if (!cls.isTextual() || !cls.asText().equals(code.errorClass().wire())) {
            throw new CaseException("expected.class", "'" + cls.asText() + "' is not the class of " + code.wire()
                    + " (" + code.errorClass().wire() + ")");
        }
        if (negative && code != null) {
            throw new CaseException("expected.code", "a negative has expected {code: null, class: null}");
        }
        if (!negative && code == null) {
            throw new CaseException("expected.code", "a failure needs a code");
        }
        if (surface.negativeOnly() && !negative) {
            throw new CaseException("surface", surface.wire() + " is a negative surface (kind must be negative)");
        }
        if (negative && !surface.negativeOnly() && surface != Surface.FINAL_CHUNK) {
            throw new CaseException("surface", "a negative uses tool_result, answer, thought, session_load_replay or "
                    + "final_chunk, not " + surface.wire());
        }
        if (negative && preStart) {
            throw new CaseException("phase", "a negative is post_start (a pre-start turn never completes)");
        }
        if (surface == Surface.HTTP && status == null) {
            throw new CaseException("status", "required for surface http");
        }
        if (surface == Surface.EXIT_ONLY && !hasExit) {
            throw new CaseException("exit", "required for surface exit_only");
        }
        String why = string(n, "why", MAX_FIELD);
        String timingHint = n.hasNonNull("timing_hint") ? string(n, "timing_hint", MAX_FIELD) : null;
        String split = string(n, "split", MAX_FIELD);
        if (!split.equals("dev") && !split.equals("test")) {
            throw new CaseException("split", "'" + split + "' is not dev or test");
        }
        JsonNode holdout = n.get("holdout");
        if (holdout != null && !holdout.isNull() && !holdout.isBoolean()) {
            throw new CaseException("holdout", "must be true or false");
        }
        String rule = holdout != null && holdout.asBoolean(false) ? "test" : splitOf(sourceReport);
        if (!split.equals(rule)) {
            throw new CaseException("split", "'" + split + "' but the split rule puts source_report " + sourceReport
                    + " in " + rule + " (assigned by source report, never by hand)");
        }
        return new ObservedCase(id, negative, sourceUrl, sourceReport, agent, agentType, provider, model, surface,
                preStart, text, status, headers, hasExit, exitCode, exitSignal, errorCode, stopReason, code, why,
                timingHint, split);
    }

    private static String string(JsonNode n, String field, int max) {
        JsonNode v = n.get(field);
        if (!v.isTextual()) {
            throw new CaseException(field, "must be a string");
        }
        String s = v.asText();
        if (s.isBlank()) {
            throw new CaseException(field, "must not be blank");
        }
        if (s.length() > max) {
            throw new CaseException(field, "longer than " + max + " characters");
        }
        if (s.indexOf('\0') >= 0) {
            throw new CaseException(field, "contains a NUL character");
        }
        return s;
    }

    private static String token(JsonNode n, String field) {
        if (!n.hasNonNull(field)) {
            return null;
        }
        String s = string(n, field, 128);
        if (!TOKEN.matcher(s).matches()) {
            throw new CaseException(field, "'" + s + "' is not an id (letters, digits, . _ : / @ + -)");
        }
        return s;
    }

    private static String printable(JsonNode n, String field) {
        String s = string(n, field, 128);
        if (s.codePoints().anyMatch(Character::isISOControl)) {
            throw new CaseException(field, "contains a control character");
        }
        return s;
    }

    private static String oneOf(JsonNode n, String field, Set<String> allowed) {
        String s = string(n, field, MAX_FIELD);
        if (!allowed.contains(s)) {
            throw new CaseException(field, "'" + s + "' is not one of " + new java.util.TreeSet<>(allowed));
        }
        return s;
    }

    private static <E extends Enum<E> & WireName> E enumValue(JsonNode n, String field, Class<E> type) {
        String s = string(n, field, MAX_FIELD);
        for (E e : type.getEnumConstants()) {
            if (e.wire().equals(s)) {
                return e;
            }
        }
        List<String> names = java.util.Arrays.stream(type.getEnumConstants()).map(WireName::wire).toList();
        throw new CaseException(field, "unknown " + field + " '" + s + "' (one of " + String.join(", ", names) + ")");
    }

    private static Integer integer(JsonNode n, String field, int min, int max) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < min || v.intValue() > max) {
            throw new CaseException(field, "must be an integer" + (min == Integer.MIN_VALUE ? "" : " between " + min
                    + " and " + max) + ", or null");
        }
        return v.intValue();
    }

    private static Map<String, String> headers(JsonNode n) {
        JsonNode h = n.get("headers");
        if (h == null || h.isNull()) {
            return Map.of();
        }
        if (!h.isObject() || h.size() > 64) {
            throw new CaseException("headers", "must be an object of at most 64 headers, or null");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = h.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!HEADER_NAME.matcher(e.getKey()).matches()) {
                throw new CaseException("headers", "'" + e.getKey() + "' is not a lower-case header name");
            }
            if (!e.getValue().isTextual() || e.getValue().asText().length() > MAX_FIELD) {
                throw new CaseException("headers." + e.getKey(), "must be a string of at most " + MAX_FIELD + " characters");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }
}
