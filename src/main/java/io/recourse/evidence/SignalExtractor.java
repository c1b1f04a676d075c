package io.recourse.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Payload;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Extracts the failure-position signal of one frame (DESIGN §4, §5.2 "match only failure
 * positions"). The mapping is the contract the catalogue's rules are written against
 * ({@link SignalKind}):
 *
 * <ul>
 *   <li>{@code acp_error}, or an {@code acp_response} carrying {@code error}: kind {@code error},
 *       fields {@code code} (decimal), {@code message}, {@code data} (compact JSON of
 *       {@code error.data}; a JSON string as itself);</li>
 *   <li>{@code acp_response} with {@code result.stopReason}: kind {@code stop}, field
 *       {@code stop_reason}; when {@code result._meta} reports failure metadata (see
 *       {@link #failureMetadata}, e.g. the JetBrains/Codex {@code sessionFailure}) the stored
 *       signal also carries {@code meta} (compact JSON of {@code result._meta}), which
 *       {@link EvidenceAssembler#assemble} presents to the classifier as a separate
 *       {@code update_meta} signal {@code {update: "prompt_result", meta}} at the same seq;</li>
 *   <li>{@code acp_update} ({@code session/update}) whose update's {@code _meta} holds failure
 *       metadata: kind {@code update_meta}, fields {@code update} (the {@code sessionUpdate}),
 *       {@code meta} (compact JSON of the update's {@code _meta}), {@code text} (content text,
 *       when present). Ordinary chunks and tool calls are never signals;</li>
 *   <li>{@code stderr}: kind {@code stderr}, field {@code line};</li>
 *   <li>{@code exit}: kind {@code exit}, fields {@code code}, {@code signal} (nulls omitted);</li>
 *   <li>{@code http}: kind {@code http}, fields {@code status}, {@code body} (text, or compact
 *       JSON), {@code header.<lower-case name>} per header; a header whose name says it carries a
 *       credential (by name: {@code authorization}, {@code cookie},
 *       {@code x-api-key}, {@code *-token}, {@code *-secret}, …) keeps its name and loses its
 *       value ({@value Sanitizer#REDACTED}), whatever the value's shape (DESIGN §9);</li>
 *   <li>{@code lifecycle} {@code launch_failed}: kind {@code lifecycle}, fields {@code event},
 *       {@code message}, {@code phase}; {@code turn_abandoned}: kind {@code lifecycle}, field
 *       {@code event}; other events: none.</li>
 * </ul>
 *
 * Every value passes through {@link Sanitizer#sanitize(String)} (DESIGN §9) before it is kept;
 * the signal is then bounded to {@code maxSignalBytes} (default 4 KiB, {@link Signal#size()}) by
 * cutting its longest values. Pure and thread-safe.
 */
public final class SignalExtractor {

    /** Most HTTP headers kept from one {@code http} frame (DESIGN §9: their number is bounded too). */
    static final int MAX_HEADERS = 32;
    /** Longest HTTP header name kept. */
    static final int MAX_HEADER_NAME_CHARS = 64;

    /** Words of a header name (split at {@code -} and {@code _}) that make its value a credential. */
    private static final java.util.Set<String> CREDENTIAL_WORDS = java.util.Set.of("authorization", "authentication",
            "cookie", "apikey", "key", "secret", "password", "passwd", "credential", "credentials", "session", "token",
            "signature");

    /** Failure metadata keys searched (depth-bounded) inside {@code _meta} objects. */
    private static final int META_DEPTH = 6;

    private final int maxSignalBytes;

    /** An extractor with the default bound of 4 KiB per signal. */
    public SignalExtractor() {
        this(EvidenceBounds.DEFAULTS.maxSignalBytes());
    }

    /** @param maxSignalBytes the bound per signal in UTF-8 bytes of names and values (&gt; 0) */
    public SignalExtractor(int maxSignalBytes) {
        if (maxSignalBytes <= 0) {
            throw new IllegalArgumentException("maxSignalBytes must be positive, got " + maxSignalBytes);
        }
        this.maxSignalBytes = maxSignalBytes;
    }

    /**
     * The frame's signal, or empty when the frame is not at a failure position.
     *
     * @param frame a parsed frame; its payload is not modified
     */
    public Optional<Signal> extract(Frame frame) {
        Payload payload = frame.payload();
        if (payload == null || !atFailurePosition(frame.source(), payload)) {
            return Optional.empty();
        }
        // a failure position: the payload's tree is read (ordinary chunks, tool calls and other
        // frames without a signal never build it)
        JsonNode p = payload.tree();
        TreeMap<String, String> f = new TreeMap<>();
        SignalKind kind;
        switch (frame.source()) {
            case ACP_ERROR -> {
                JsonNode error = p.has("error") ? p.get("error") : p;
                errorFields(error, f);
                kind = SignalKind.ERROR;
            }
            case ACP_RESPONSE -> {
                JsonNode error = p.get("error");
                JsonNode result = p.get("result");
                if (error != null && error.isObject()) {
                    errorFields(error, f);
                    kind = SignalKind.ERROR;
                } else if (result != null && result.isObject() && result.hasNonNull("stopReason")) {
                    put(f, "stop_reason", text(result.get("stopReason")));
                    if (failureMetadata(result.get("_meta")) != null) {
                        put(f, "meta", result.get("_meta").toString());
                    }
                    kind = SignalKind.STOP;
                } else {
                    return Optional.empty();
                }
            }
            case ACP_UPDATE -> {
                JsonNode update = update(p);
                JsonNode meta = update.get("_meta");
                put(f, "update", text(update.get("sessionUpdate")));
                put(f, "meta", meta.toString());
                put(f, "text", contentText(update));
                kind = SignalKind.UPDATE_META;
            }
            case STDERR -> {
                put(f, "line", text(p.get("line")));
                kind = SignalKind.STDERR;
            }
            case EXIT -> {
                put(f, "code", text(p.get("code")));
                put(f, "signal", text(p.get("signal")));
                kind = SignalKind.EXIT;
            }
            case HTTP -> {
                put(f, "status", text(p.get("status")));
                put(f, "body", text(p.get("body")));
                JsonNode headers = p.get("headers");
                if (headers != null && headers.isObject()) {
                    int kept = 0;
                    for (Iterator<Map.Entry<String, JsonNode>> it = headers.fields(); it.hasNext() && kept < MAX_HEADERS; ) {
                        Map.Entry<String, JsonNode> h = it.next();
                        String name = h.getKey().toLowerCase(Locale.ROOT);
                        if (!isKeptHeaderName(name)) {
                            continue;
                        }
                        kept++;
                        put(f, "header." + name, isCredentialHeader(name) && !h.getValue().isNull()
                                ? Sanitizer.REDACTED : text(h.getValue()));
                    }
                }
                kind = SignalKind.HTTP;
            }
            case LIFECYCLE -> {
                String event = text(p.get("event"));
                if ("launch_failed".equals(event)) {
                    put(f, "event", event);
                    put(f, "message", text(p.get("message")));
                    String phase = text(p.get("phase"));
                    put(f, "phase", phase != null ? phase : frame.phase() == null ? null : frame.phase().wire());
                } else if ("turn_abandoned".equals(event)) {
                    put(f, "event", event);
                } else {
                    return Optional.empty();
                }
                kind = SignalKind.LIFECYCLE;
            }
            default -> {
                return Optional.empty();
            }
        }
        return Optional.of(new Signal(frame.seq(), frame.occurredAt(), frame.source(), frame.phase(), kind,
                bound(f, maxSignalBytes)));
    }

    /**
     * Whether a frame of {@code source} may carry a signal, decided from the payload's decisive
     * members alone: the sources {@link #extract} reads in full, an {@code acp_response} with an
     * error object or a {@code stopReason}, an {@code acp_update} whose update's {@code _meta} holds
     * failure metadata, a {@code lifecycle} {@code launch_failed} or {@code turn_abandoned}.
     */
    private static boolean atFailurePosition(FrameSource source, Payload p) {
        return switch (source) {
            case ACP_ERROR, STDERR, EXIT, HTTP -> true;
            case ACP_RESPONSE -> p.errorIsObject() || p.hasStopReason();
            case ACP_UPDATE -> p.hasUpdate() && failureMetadata(p.updateMeta()) != null;
            case LIFECYCLE -> "launch_failed".equals(p.event()) || "turn_abandoned".equals(p.event());
            default -> false;
        };
    }

    /** The {@code params.update} of a {@code session/update} notification, or {@code null}. */
    static JsonNode update(JsonNode payload) {
        JsonNode params = payload.get("params");
        JsonNode update = params == null ? null : params.get("update");
        return update != null && update.isObject() ? update : null;
    }

    /** The {@code content.text} of an update, or {@code null}. */
    static String contentText(JsonNode update) {
        JsonNode content = update.get("content");
        if (content != null && content.isObject() && content.path("text").isTextual()) {
            return content.get("text").asText();
        }
        return null;
    }

    /**
     * The failure metadata inside a {@code _meta} object, or {@code null} when there is none.
     * Failure metadata is, at depth ≤ 6: a non-null {@code error} member (Codex
     * {@code _meta.codex.error}), a non-null {@code sessionFailure} member (JetBrains/Codex typed
     * session failure), or a {@code threadStatus} whose {@code type} is {@code systemError} (the
     * Codex failure marker). The answer is an object mapping each such member's dotted path to
     * its node, e.g. {@code {"codex.error": {...}}}.
     */
    static JsonNode failureMetadata(JsonNode meta) {
        if (meta == null || !meta.isObject()) {
            return null;
        }
        com.fasterxml.jackson.databind.node.ObjectNode found =
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        collect(meta, "", 0, found);
        return found.isEmpty() ? null : found;
    }

    private static void collect(JsonNode node, String path, int depth, com.fasterxml.jackson.databind.node.ObjectNode found) {
        if (depth > META_DEPTH || !node.isObject()) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            JsonNode v = e.getValue();
            String p = path.isEmpty() ? name : path + "." + name;
            boolean failure = switch (name) {
                case "error", "sessionFailure" -> v != null && !v.isNull() && !(v.isBoolean() && !v.booleanValue());
                case "threadStatus" -> v != null && "systemError".equalsIgnoreCase(v.path("type").asText(""));
                default -> false;
            };
            if (failure) {
                found.set(p, v);
            } else if (v != null && v.isObject()) {
                collect(v, p, depth + 1, found);
            }
        }
    }

    private static void errorFields(JsonNode error, TreeMap<String, String> f) {
        put(f, "code", text(error.get("code")));
        put(f, "message", text(error.get("message")));
        put(f, "data", text(error.get("data")));
    }

    /** Text of a JSON value: a string as itself, a number in decimal, anything else as compact JSON; null → null. */
    static String text(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        if (v.isTextual()) {
            return v.asText();
        }
        if (v.isIntegralNumber()) {
            return v.bigIntegerValue().toString();
        }
        if (v.isNumber()) {
            return v.decimalValue().toPlainString();
        }
        return v.toString();
    }

    /**
     * Whether a lower-case HTTP header name is kept (DESIGN §9): at most
     * {@value #MAX_HEADER_NAME_CHARS} characters of {@code [a-z0-9._-]} that the sanitizer leaves
     * unchanged — a name that carries a token, an e-mail address or any other text is dropped with
     * its value. At most {@value #MAX_HEADERS} headers of one frame are kept.
     */
    static boolean isKeptHeaderName(String name) {
        if (name.isEmpty() || name.length() > MAX_HEADER_NAME_CHARS) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.')) {
                return false;
            }
        }
        return Sanitizer.sanitize(name).equals(name);
    }

    /**
     * True when the lower-case header {@code name} carries a credential: one of its words (split
     * at {@code -} and {@code _}) is {@code authorization}, {@code cookie}, {@code key},
     * {@code token}, {@code secret}, {@code password}, {@code session}, … — a whole word, so
     * rate-limit headers such as {@code x-ratelimit-remaining-tokens} keep their values (the
     * catalogue reads them). Linear in the name's length.
     */
    static boolean isCredentialHeader(String name) {
        for (String word : name.split("[-_]")) {
            if (CREDENTIAL_WORDS.contains(word)) {
                return true;
            }
        }
        return false;
    }

    private static void put(TreeMap<String, String> f, String name, String value) {
        if (value != null) {
            f.put(name, Sanitizer.sanitize(value));
        }
    }

    /**
     * Bounds a signal's fields to {@code maxBytes} ({@link Signal#size()}): the longest value is
     * cut (at a UTF-8 character boundary) until the whole fits. Field names are kept.
     */
    static TreeMap<String, String> bound(Map<String, String> fields, int maxBytes) {
        TreeMap<String, String> out = new TreeMap<>(fields);
        int size = size(out);
        while (size > maxBytes) {
            String longest = null;
            int longestBytes = -1;
            for (Map.Entry<String, String> e : out.entrySet()) {
                int b = utf8(e.getValue());
                if (b > longestBytes) {
                    longest = e.getKey();
                    longestBytes = b;
                }
            }
            if (longest == null || longestBytes == 0) {
                break; // only names are left; they are short and fixed
            }
            int keep = Math.max(0, longestBytes - (size - maxBytes));
            out.put(longest, cut(out.get(longest), keep));
            size = size(out);
        }
        return out;
    }

    /** The longest prefix of {@code s} of at most {@code maxBytes} UTF-8 bytes. */
    static String cut(String s, int maxBytes) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= maxBytes) {
            return s;
        }
        int end = maxBytes;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--;
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }

    static int utf8(String s) {
        return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static int size(Map<String, String> f) {
        int n = 0;
        for (Map.Entry<String, String> e : f.entrySet()) {
            n += e.getKey().length() + utf8(e.getValue());
        }
        return n;
    }
}
