package io.recourse.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;

/**
 * {@code prompt_digest} and {@code turn_config_digest} (DESIGN §6.5): lower-case hex SHA-256
 * over the RFC 8785 (JSON Canonicalization Scheme) form of a JSON value — object members sorted
 * by their UTF-16 code units, no whitespace, strings escaped as ECMAScript {@code JSON.stringify}
 * does, numbers in ECMAScript {@code Number.prototype.toString} form.
 */
public final class PromptDigest {

    private PromptDigest() {
    }

    /**
     * Whether {@code text} has the shape of a digest this class computes: 64 lower-case hex
     * digits. A gateway's {@code prompt_digest} of any other shape is not kept (DESIGN §9: it
     * would travel verbatim into RetryCommands).
     */
    public static boolean isDigest(String text) {
        if (text == null || text.length() != 64) {
            return false;
        }
        for (int i = 0; i < 64; i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** Hex SHA-256 of {@link #canonical(JsonNode)}; {@code null} for {@code null} or a missing node. */
    public static String digest(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return null;
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical(value).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
        }
    }

    /** The RFC 8785 canonical JSON text of {@code value}. */
    public static String canonical(JsonNode value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(JsonNode v, StringBuilder out) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            out.append("null");
        } else if (v.isBoolean()) {
            out.append(v.booleanValue());
        } else if (v.isNumber()) {
            out.append(number(v));
        } else if (v.isTextual()) {
            string(v.asText(), out);
        } else if (v.isArray()) {
            out.append('[');
            for (int i = 0; i < v.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(v.get(i), out);
            }
            out.append(']');
        } else if (v.isObject()) {
            List<String> names = new ArrayList<>();
            for (Iterator<String> it = v.fieldNames(); it.hasNext(); ) {
                names.add(it.next());
            }
            names.sort(String::compareTo); // String.compareTo orders by UTF-16 code units, as RFC 8785 §3.2.3 requires
            out.append('{');
            for (int i = 0; i < names.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                string(names.get(i), out);
                out.append(':');
                write(v.get(names.get(i)), out);
            }
            out.append('}');
        } else {
            string(v.asText(), out);
        }
    }

    /** ECMAScript Number.prototype.toString of the value as an IEEE 754 double (RFC 8785 §3.2.2.3). */
    static String number(JsonNode v) {
        double d = v.doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("RFC 8785 has no form for " + d);
        }
        if (d == 0) {
            return "0";
        }
        // Shortest round-tripping digits: Java's Double.toString is shortest for the values JSON carries in practice.
        BigDecimal bd = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        String digits = bd.unscaledValue().toString();
        int k = digits.length();
        int n = k - bd.scale(); // decimal point position: value = 0.digits × 10^n
        StringBuilder s = new StringBuilder(d < 0 ? "-" : "");
        if (k <= n && n <= 21) {
            s.append(digits).append("0".repeat(n - k));
        } else if (0 < n && n <= 21) {
            s.append(digits, 0, n).append('.').append(digits, n, k);
        } else if (-6 < n && n <= 0) {
            s.append("0.").append("0".repeat(-n)).append(digits);
        } else {
            int e = n - 1;
            s.append(digits.charAt(0));
            if (k > 1) {
                s.append('.').append(digits, 1, k);
            }
            s.append('e').append(e < 0 ? "-" : "+").append(Math.abs(e));
        }
        return s.toString();
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
