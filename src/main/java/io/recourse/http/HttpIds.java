package io.recourse.http;

import io.recourse.ingress.InputBounds;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * The ids of the HTTP queries' URIs (DESIGN §10): strict percent-decoding of a path segment or
 * query value, the query parameter lookup, and the encoding of one segment for links. Pure: no
 * server state.
 */
final class HttpIds {

    private HttpIds() {
    }

    /**
     * A path segment (or query value) percent-decoded as strict UTF-8, or empty when it does not
     * decode: a malformed escape, bytes that are no UTF-8 (an encoded surrogate such as
     * {@code %ED%A0%80}, an overlong form), or more than 3 × 4 × {@value InputBounds#MAX_ID_CHARS} characters.
     * A {@code +} stays a plus.
     */
    static Optional<String> id(String raw) {
        if (raw.length() > 3 * InputBounds.MAX_ID_CHARS * 4) {
            return Optional.empty();
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char ch = raw.charAt(i);
            if (ch == '%') {
                int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = hi >= 0 ? Character.digit(raw.charAt(i + 2), 16) : -1;
                if (lo < 0) {
                    return Optional.empty();
                }
                bytes.write(hi * 16 + lo);
                i += 2;
            } else if (ch < 0x80) {
                bytes.write(ch);
            } else {
                return Optional.empty(); // the server hands over the raw (ASCII) path: anything else is no valid URI
            }
        }
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray())).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    /** The decoded value of query parameter {@code name}, if present (the first one). */
    static Optional<String> queryParameter(String rawQuery, String name) {
        if (rawQuery == null || rawQuery.length() > 4 * 3 * 4 * InputBounds.MAX_ID_CHARS) {
            return Optional.empty();
        }
        for (String pair : rawQuery.split("&", 16)) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                return Optional.of(pair.substring(eq + 1));
            }
        }
        return Optional.empty();
    }

    /** URL-encodes one path segment (tests, the status page's links). */
    static String segment(String id) {
        return URLEncoder.encode(Objects.requireNonNull(id), StandardCharsets.UTF_8).replace("+", "%20");
    }
}
