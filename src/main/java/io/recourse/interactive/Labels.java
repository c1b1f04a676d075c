package io.recourse.interactive;

import java.util.regex.Pattern;

/**
 * The default sanitizer of RecoveryState's {@code provider_label} / {@code model_label}
 * (DESIGN §6.5, §9): provider and model ids are short identifiers, so anything that is not one is
 * not shown. Keeps letters, digits and {@code . _ : / @ + -}; any other run of characters becomes
 * {@code _}; at most 64 characters; values shaped like credentials ({@code sk-…},
 * {@code ghp_…}, {@code github_pat_…}) become {@code redacted}; blank → {@code null}. Idempotent.
 * The processor may pass the project's full sanitizer instead
 * ({@link InteractiveRecoveryPolicy#InteractiveRecoveryPolicy(InteractiveConfig, JitterSource, java.util.function.UnaryOperator)}).
 */
public final class Labels {

    /** Longest label kept, in characters. */
    public static final int MAX_LENGTH = 64;

    private static final Pattern NOT_ALLOWED = Pattern.compile("[^A-Za-z0-9._:/@+\\-]+");
    private static final Pattern CREDENTIAL = Pattern.compile("(?i)(^|[^A-Za-z0-9])(sk-|ghp_|github_pat_)");

    private Labels() {
    }

    /** Sanitizes one label; {@code null} stays {@code null}. */
    public static String sanitize(String label) {
        if (label == null || label.isBlank()) {
            return null;
        }
        if (CREDENTIAL.matcher(label).find()) {
            return "redacted";
        }
        String kept = NOT_ALLOWED.matcher(label.strip()).replaceAll("_");
        return kept.length() > MAX_LENGTH ? kept.substring(0, MAX_LENGTH) : kept;
    }
}
