package io.recourse.evidence;

import java.nio.charset.StandardCharsets;

// placeholder: replaced by the sanitizer branch
/**
 * Sanitizes a signal value before it is kept (DESIGN §9). This placeholder only bounds the text
 * to 4 KiB of UTF-8; the real redaction lands from the sanitizer branch with the same signature.
 */
public final class Sanitizer {

    private static final int MAX_BYTES = 4096;

    private Sanitizer() {
    }

    /** The sanitized text, at most 4 KiB of UTF-8, idempotent; {@code null} stays {@code null}. */
    public static String sanitize(String text) {
        if (text == null) {
            return null;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_BYTES) {
            return text;
        }
        int end = MAX_BYTES;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--;
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }
}
