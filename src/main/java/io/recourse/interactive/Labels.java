package io.recourse.interactive;

import io.recourse.evidence.Sanitizer;
import java.util.regex.Pattern;

/**
 * The default sanitizer of RecoveryState's {@code provider_label} / {@code model_label}
 * (DESIGN §6.5, §9): the project's {@link Sanitizer} first (secrets, URLs, e-mails, opaque ids),
 * its placeholders turned into plain words ({@code [redacted]} → {@code redacted}), then shaped as
 * a short identifier: letters, digits and {@code . _ : / @ + -} are kept, any other run of
 * characters becomes {@code _}, at most {@value #MAX_LENGTH} characters; blank → {@code null}.
 */
public final class Labels {

    /** Longest label kept, in characters. */
    public static final int MAX_LENGTH = 64;

    private static final Pattern NOT_ALLOWED = Pattern.compile("[^A-Za-z0-9._:/@+\\-]+");

    private Labels() {
    }

    /** Sanitizes one label; {@code null} stays {@code null}. */
    public static String sanitize(String label) {
        if (label == null || label.isBlank()) {
            return null;
        }
        String clean = Sanitizer.sanitize(label.strip())
                .replace(Sanitizer.TRUNCATED, "")
                .replace(Sanitizer.REDACTED, "redacted")
                .replace(Sanitizer.ID, "id")
                .replace(Sanitizer.EMAIL, "email")
                .replace(Sanitizer.USER, "user");
        String shaped = NOT_ALLOWED.matcher(clean).replaceAll("_");
        return shaped.length() > MAX_LENGTH ? shaped.substring(0, MAX_LENGTH) : shaped;
    }
}
