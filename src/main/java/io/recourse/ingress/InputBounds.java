package io.recourse.ingress;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The length, charset and range bounds of every identifier and record key Recourse reads
 * (DESIGN §3 "Bounds of the fields"): one place the frame parser and the JSON input parsers
 * (controls, acks, run requests, run controls) share, so a field that reaches a key, a store or
 * an output is never larger than these. The checks answer with a message that names the field
 * and the rule, never the value (which may be huge or hold secrets).
 *
 * <ul>
 *   <li><b>id</b> ({@code session_id}, {@code workspace_id}, {@code run_id}, {@code task_id},
 *       {@code agent_profile_id}, {@code execution_profile_id}, {@code command_id},
 *       {@code request_id}, {@code dynamic_profile_id}, {@code model_id}): 1 to
 *       {@value #MAX_ID_CHARS} characters, none of them a control character (C0, DEL, C1) or a
 *       lone surrogate (not UTF-8 text); a {@code session_id} has no {@code #} either (the
 *       signal store's key separator, DESIGN §4: {@code <session>/<generation>#<seq>}). Ids are
 *       the platform's, so any other Unicode text is kept as given;</li>
 *   <li><b>name</b> ({@code agent_type}, {@code provider_id}): {@code [a-z0-9][a-z0-9._-]{0,63}};</li>
 *   <li><b>digest</b> ({@code prompt_digest}): 64 lower-case hex digits (SHA-256, DESIGN §6.5);</li>
 *   <li><b>JSON-RPC id</b>: an integer that fits a {@code long}, or a string of at most
 *       {@value #MAX_JSONRPC_ID_CHARS} characters;</li>
 *   <li><b>number</b> anywhere in a frame's {@code payload} or {@code turn_config}: an integer of
 *       at most {@value #MAX_INTEGER_DIGITS} decimal digits, or (with a fraction or exponent) a
 *       finite IEEE-754 double, so {@code 1e400} and a 65-digit integer are refused. The readers
 *       read a fraction or exponent as a double, so no accepted number expands into a long decimal
 *       ({@code BigDecimal.toPlainString} of a double has at most a few hundred characters); Jackson
 *       refuses any number literal over {@value #MAX_NUMBER_CHARS} characters as invalid JSON;</li>
 *   <li><b>record key</b> of a JSON input: at most {@value #MAX_KEY_BYTES} bytes.</li>
 * </ul>
 */
public final class InputBounds {

    /** Most characters of an id. */
    public static final int MAX_ID_CHARS = 256;
    /** Most characters of a name ({@code agent_type}, {@code provider_id}). */
    public static final int MAX_NAME_CHARS = 64;
    /** Most characters of a string JSON-RPC {@code id}. */
    public static final int MAX_JSONRPC_ID_CHARS = 128;
    /** Most bytes of a record key of a JSON input topic (an id, UTF-8). */
    public static final int MAX_KEY_BYTES = MAX_ID_CHARS;
    /** Most bytes of {@code turn_config} as compact JSON: 16 KiB. */
    public static final int MAX_TURN_CONFIG_BYTES = 16 * 1024;
    /** Deepest JSON nesting any input may have (Jackson's default read constraint). */
    public static final int MAX_NESTING_DEPTH = StreamReadConstraints.DEFAULT_MAX_DEPTH;

    /**
     * Most decimal digits (sign not counted) of an integer in a frame's {@code payload} or
     * {@code turn_config}: JSON-RPC ids, error codes, exit codes and HTTP statuses need at most 19.
     */
    public static final int MAX_INTEGER_DIGITS = 64;
    /** Most characters of any JSON number literal (Jackson's default read constraint; longer is invalid JSON). */
    public static final int MAX_NUMBER_CHARS = StreamReadConstraints.DEFAULT_MAX_NUM_LEN;

    /** The rule of an id, as rejection messages state it. */
    public static final String ID_RULE = "must be 1 to " + MAX_ID_CHARS + " characters without control characters or lone surrogates";
    /** The rule of a session id, as rejection messages state it. */
    public static final String SESSION_ID_RULE = "must be 1 to " + MAX_ID_CHARS
            + " characters without control characters, lone surrogates or '#'";
    /** The rule of a name, as rejection messages state it. */
    public static final String NAME_RULE = "must match [a-z0-9][a-z0-9._-]{0," + (MAX_NAME_CHARS - 1) + "}";
    /** The rule of a digest, as rejection messages state it. */
    public static final String DIGEST_RULE = "must be 64 lower-case hex digits (SHA-256)";
    /** The rule of a JSON-RPC id, as rejection messages state it. */
    public static final String JSONRPC_ID_RULE = "must be an integer or a string of at most " + MAX_JSONRPC_ID_CHARS
            + " characters";

    /** The rule of the numbers in {@code payload} and {@code turn_config}, as rejection messages state it. */
    public static final String NUMBER_RULE = "holds a number out of range (an integer must have at most "
            + MAX_INTEGER_DIGITS + " digits, any other number must be a finite IEEE-754 double)";

    /** 10<sup>{@value #MAX_INTEGER_DIGITS}</sup>: the least integer magnitude out of range. */
    private static final BigInteger INTEGER_LIMIT = BigInteger.TEN.pow(MAX_INTEGER_DIGITS);

    private InputBounds() {
    }

    /** Whether {@code n} has at most {@value #MAX_INTEGER_DIGITS} decimal digits. */
    public static boolean isBoundedInteger(BigInteger n) {
        return n.abs().compareTo(INTEGER_LIMIT) < 0;
    }

    /**
     * Whether every number in {@code tree} (at any depth) is within {@link #NUMBER_RULE}: an
     * integer of at most {@value #MAX_INTEGER_DIGITS} digits, any other number finite as a double.
     * Iterative, so a tree nested to {@value #MAX_NESTING_DEPTH} levels costs no deep stack.
     */
    public static boolean hasBoundedNumbers(JsonNode tree) {
        Deque<JsonNode> pending = new ArrayDeque<>();
        pending.push(tree);
        while (!pending.isEmpty()) {
            JsonNode n = pending.pop();
            if (n.isContainerNode()) {
                for (JsonNode child : n) {
                    pending.push(child);
                }
            } else if (n.isIntegralNumber()) {
                if (!n.canConvertToLong() && !isBoundedInteger(n.bigIntegerValue())) {
                    return false;
                }
            } else if (n.isNumber() && !Double.isFinite(n.doubleValue())) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code s} is a session id: an id without {@code #}. */
    public static boolean isSessionId(String s) {
        return isId(s) && s.indexOf('#') < 0;
    }

    /** Whether {@code s} is an id: 1 to {@value #MAX_ID_CHARS} characters, no control character or lone surrogate. */
    public static boolean isId(String s) {
        int n = s.length();
        if (n == 0 || n > MAX_ID_CHARS) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c)) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == n || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code s} is a name: {@code [a-z0-9][a-z0-9._-]{0,63}}. */
    public static boolean isName(String s) {
        int n = s.length();
        if (n == 0 || n > MAX_NAME_CHARS || !lowerAlnum(s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < n; i++) {
            char c = s.charAt(i);
            if (!lowerAlnum(c) && c != '.' && c != '_' && c != '-') {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code s} is 64 lower-case hex digits. */
    public static boolean isDigest(String s) {
        if (s.length() != 64) {
            return false;
        }
        for (int i = 0; i < 64; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** Whether a string JSON-RPC id is within {@value #MAX_JSONRPC_ID_CHARS} characters. */
    public static boolean isJsonRpcIdText(String s) {
        return s.length() <= MAX_JSONRPC_ID_CHARS;
    }

    /**
     * Why a record key of a JSON input topic is refused, or {@code null} when it is acceptable.
     * A {@code null} key is refused: the body's id re-keys the record, and a key that is not the
     * body's id is refused later as {@code key_mismatch}.
     */
    public static String keyProblem(byte[] key) {
        if (key == null) {
            return "record key is null (expected the body's id)";
        }
        if (key.length > MAX_KEY_BYTES) {
            return "record key has " + key.length + " bytes, more than the bound of " + MAX_KEY_BYTES;
        }
        return null;
    }

    /**
     * The rejection message of an id field that breaks {@link #ID_RULE}: {@code field <name> must be …}.
     */
    public static String invalidId(String field) {
        return "field " + field + " " + (field.equals("session_id") ? SESSION_ID_RULE : ID_RULE);
    }

    /** Whether {@code value} satisfies the rule of {@code field}: {@link #isSessionId} for {@code session_id}, else {@link #isId}. */
    public static boolean isId(String field, String value) {
        return field.equals("session_id") ? isSessionId(value) : isId(value);
    }

    /**
     * Whether {@code e} (or a cause) is Jackson's nesting-depth constraint: the input nests
     * deeper than {@value #MAX_NESTING_DEPTH} levels.
     */
    public static boolean isTooDeep(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof StreamConstraintsException && t.getMessage() != null && t.getMessage().contains("depth")) {
                return true;
            }
        }
        return false;
    }

    /** The message for input that nests too deeply (reason {@code invalid_json}). */
    public static String tooDeep(String what) {
        return what + " nests JSON deeper than " + MAX_NESTING_DEPTH + " levels";
    }

    private static boolean lowerAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }
}
