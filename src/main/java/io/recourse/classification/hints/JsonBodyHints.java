package io.recourse.classification.hints;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Timing hints in JSON bodies, found at any depth (DESIGN §5.2), also inside JSON that is
 * embedded as a string value (an ACP error {@code message} holding {@code API Error: 429 {...}})
 * or that follows a text prefix.
 *
 * <p>Fields, in the order {@link #find(String, Instant)} tries them:
 * <ul>
 *   <li>{@code resets_at} / {@code resetsAt}: epoch seconds (number or numeric string; 12–14
 *       digits are read as milliseconds) or an RFC 3339 string — absolute;</li>
 *   <li>{@code resets_in_seconds} / {@code resetsInSeconds}: seconds (number or numeric string),
 *       relative to {@code base};</li>
 *   <li>{@code retryDelay} / {@code retry_delay} (Google {@code RetryInfo}): a protobuf duration
 *       string {@code "25s"}, {@code "25.46s"} (any Go-style duration is accepted) or a number of
 *       seconds, relative to {@code base}.</li>
 * </ul>
 * Text that holds no parseable JSON object gives empty; bodies above 256 KiB are not read.
 *
 * <p>Numbers are read at their exact decimal value: a negative one, one beyond a double's range
 * ({@code 1e400}, {@code -1e400}), an integer beyond 64 bits, or seconds finer than nanoseconds
 * ({@code 1e-400}) are no hint, as their text forms are.
 */
public final class JsonBodyHints {

    /** Largest text parsed. */
    static final int MAX_CHARS = 256 * 1024;
    private static final int MAX_EMBEDDED_DEPTH = 3;
    /** Floats as {@link BigDecimal}: {@code 1e400} or {@code 1e-400} keep their value, not infinity or zero. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();
    /** Seconds have at most 12 integer digits (as the text form's pattern). */
    private static final BigDecimal SECONDS_LIMIT = BigDecimal.TEN.pow(12);

    private static final Set<String> RESETS_AT = Set.of("resets_at", "resetsAt");
    private static final Set<String> RESETS_IN_SECONDS = Set.of("resets_in_seconds", "resetsInSeconds");
    private static final Set<String> RETRY_DELAY = Set.of("retryDelay", "retry_delay");

    private JsonBodyHints() {
    }

    /**
     * The first hint of the body: {@code resets_at}, else {@code resets_in_seconds}, else
     * {@code retryDelay}.
     *
     * @param json JSON text, or text with a JSON object after a prefix; {@code null} allowed
     * @param base the carrying signal's {@code occurred_at}, for the relative fields
     * @return the instant (UTC), or empty
     */
    public static Optional<Instant> find(String json, Instant base) {
        return parse(json).flatMap(node -> find(node, base));
    }

    /** {@link #find(String, Instant)} on an already parsed body; {@code null} allowed. */
    public static Optional<Instant> find(JsonNode body, Instant base) {
        return resetsAt(body).or(() -> resetsInSeconds(body, base)).or(() -> retryDelay(body, base));
    }

    /** The first valid {@code resets_at} of the body (absolute); see the class doc. */
    public static Optional<Instant> resetsAt(String json) {
        if (!mayName(json, RESETS_AT)) {
            return Optional.empty();
        }
        return parse(json).flatMap(JsonBodyHints::resetsAt);
    }

    /** The first valid {@code resets_at} of a parsed body; {@code null} allowed. */
    public static Optional<Instant> resetsAt(JsonNode body) {
        return first(body, RESETS_AT, value -> value.isNumber()
                ? epoch(value)
                : EpochInstant.parse(value.asText()).or(() -> Rfc3339.parse(value.asText())));
    }

    /** The first valid {@code resets_in_seconds} of the body, relative to {@code base}. */
    public static Optional<Instant> resetsInSeconds(String json, Instant base) {
        if (!mayName(json, RESETS_IN_SECONDS)) {
            return Optional.empty();
        }
        return parse(json).flatMap(node -> resetsInSeconds(node, base));
    }

    /** The first valid {@code resets_in_seconds} of a parsed body; {@code null} allowed. */
    public static Optional<Instant> resetsInSeconds(JsonNode body, Instant base) {
        return first(body, RESETS_IN_SECONDS, value -> seconds(value, base));
    }

    /** The first valid {@code retryDelay} of the body, relative to {@code base}. */
    public static Optional<Instant> retryDelay(String json, Instant base) {
        if (!mayName(json, RETRY_DELAY)) {
            return Optional.empty();
        }
        return parse(json).flatMap(node -> retryDelay(node, base));
    }

    /** The first valid {@code retryDelay} of a parsed body; {@code null} allowed. */
    public static Optional<Instant> retryDelay(JsonNode body, Instant base) {
        return first(body, RETRY_DELAY,
                value -> value.isNumber() ? seconds(value, base) : GoDuration.resetAt(value.asText(), base));
    }

    /**
     * All values of fields named one of {@code names}, at any depth, in document order (depth
     * first), including inside JSON objects embedded as string values (up to 3 levels).
     *
     * @param body a parsed JSON tree; {@code null} gives an empty list
     */
    public static List<JsonNode> findFields(JsonNode body, Set<String> names) {
        List<JsonNode> found = new ArrayList<>();
        collect(body, names, 0, found);
        return found;
    }

    /**
     * Parses {@code text} as JSON: the whole text, or else the span from its first opening brace
     * to its last closing brace (an object after a prefix such as {@code API Error: 429 }). Never
     * throws.
     *
     * @return the tree, or empty when no JSON object or array can be read
     */
    public static Optional<JsonNode> parse(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_CHARS) {
            return Optional.empty();
        }
        Optional<JsonNode> whole = read(text);
        if (whole.isPresent() && whole.get().isContainerNode()) {
            return whole;
        }
        int open = text.indexOf('{');
        int close = text.lastIndexOf('}');
        if (open >= 0 && close > open) {
            return read(text.substring(open, close + 1)).filter(JsonNode::isContainerNode);
        }
        return Optional.empty();
    }

    /** The first valid hint among the values of fields named one of {@code names} (document order). */
    private static Optional<Instant> first(JsonNode body, Set<String> names, Function<JsonNode, Optional<Instant>> hint) {
        for (JsonNode value : findFields(body, names)) {
            Optional<Instant> found = hint.apply(value);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static Optional<JsonNode> read(String text) {
        try {
            return Optional.ofNullable(JSON.readTree(text));
        } catch (JsonProcessingException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static void collect(JsonNode root, Set<String> names, int embeddedDepth, List<JsonNode> found) {
        if (root == null) {
            return;
        }
        // Iterative walk: deep adversarial nesting must not overflow the stack.
        Deque<JsonNode> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            JsonNode node = stack.pop();
            if (node.isObject()) {
                List<JsonNode> children = new ArrayList<>();
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    if (names.contains(field.getKey())) {
                        found.add(field.getValue());
                    }
                    children.add(field.getValue());
                }
                pushReversed(stack, children);
            } else if (node.isArray()) {
                List<JsonNode> children = new ArrayList<>();
                node.elements().forEachRemaining(children::add);
                pushReversed(stack, children);
            } else if (node.isTextual() && embeddedDepth < MAX_EMBEDDED_DEPTH && node.asText().indexOf('{') >= 0) {
                String text = node.asText();
                if (containsAnyName(text, names)) {
                    parse(text).ifPresent(embedded -> collect(embedded, names, embeddedDepth + 1, found));
                }
            }
        }
    }

    /**
     * Whether {@code text} can hold a field named one of {@code names}, at any depth: the name
     * appears as written, or the text has a backslash-u escape, the only JSON escape that can
     * spell a letter or an underscore (also inside JSON embedded in a string value: an embedded
     * escape decodes from one in the text). When false, parsing finds no such field, so the text
     * is not parsed (most provider texts carry no timing hint).
     */
    private static boolean mayName(String text, Set<String> names) {
        return text != null && (text.contains("\\u") || containsAnyName(text, names));
    }

    private static boolean containsAnyName(String text, Set<String> names) {
        for (String name : names) {
            if (text.contains(name)) {
                return true;
            }
        }
        return false;
    }

    private static void pushReversed(Deque<JsonNode> stack, List<JsonNode> children) {
        for (int i = children.size() - 1; i >= 0; i--) {
            stack.push(children.get(i));
        }
    }

    private static Optional<Instant> epoch(JsonNode number) {
        if (number.canConvertToLong() && number.asLong() >= 100_000_000_000L) {
            return EpochInstant.parse(Long.toString(number.asLong()));
        }
        return EpochInstant.ofSeconds(number.asDouble());
    }

    private static Optional<Instant> seconds(JsonNode value, Instant base) {
        String text = value.isNumber() ? plainSeconds(value) : value.asText().strip();
        if (text == null || text.length() > 32 || !text.matches("\\d{1,12}+(?:\\.\\d{1,9}+)?")) {
            return Optional.empty();
        }
        return Durations.of(text, 1_000_000_000L).flatMap(d -> Durations.plus(base, d));
    }

    /**
     * A number of seconds as a plain decimal numeral, or {@code null} when it is negative, not
     * finite, of 13 or more integer digits or finer than nanoseconds. Bounds are checked before
     * any plain form is built: {@code 1e-999999999} must not become a billion-character string.
     */
    private static String plainSeconds(JsonNode number) {
        BigDecimal d;
        if (number.isIntegralNumber()) {
            if (!number.canConvertToLong()) {
                return null;
            }
            d = BigDecimal.valueOf(number.longValue());
        } else if (number.isBigDecimal()) {
            d = number.decimalValue();
        } else {
            double x = number.doubleValue();
            if (!Double.isFinite(x)) {
                return null;
            }
            d = BigDecimal.valueOf(x);
        }
        if (d.signum() < 0 || d.compareTo(SECONDS_LIMIT) >= 0) {
            return null;
        }
        d = d.stripTrailingZeros();
        return d.scale() > 9 ? null : d.toPlainString();
    }
}
