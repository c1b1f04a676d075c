package io.recourse.classification.hints;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;
import java.time.Instant;
import java.util.Optional;

/**
 * The timing-hint parsers by name, for the catalogue's declarative "hint extractors"
 * (DESIGN §5.2). Each takes the text the rule selected (a header value, a body, a message) and
 * the carrying signal's {@code occurred_at}; absolute forms ignore the base. The result is not
 * yet validated: pass it to {@link HintValidator#validate(Instant, Instant)}.
 */
public enum HintExtractor implements WireName {
    /** {@code retry-after}: delta seconds or HTTP-date; {@link RetryAfterHeader#parse}. */
    RETRY_AFTER_HEADER,
    /** {@code retry-after-ms}: delta milliseconds; {@link RetryAfterHeader#parseMillis}. */
    RETRY_AFTER_MS_HEADER,
    /** {@code x-ratelimit-reset-requests|tokens}: Go durations; {@link GoDuration#resetAt}. */
    GO_DURATION,
    /** {@code anthropic-ratelimit-*-reset}: RFC 3339 instants; {@link Rfc3339#parse}. */
    RFC3339,
    /** Epoch seconds or milliseconds ({@code x-codex-primary-reset-at}); {@link EpochInstant#parse}. */
    EPOCH,
    /** {@code resets_at}, {@code resets_in_seconds}, {@code retryDelay} at any depth; {@link JsonBodyHints#find}. */
    JSON_BODY,
    /** {@code …usage limit reached|1767225600}; {@link ClaudeEpochSuffix#parse}. */
    CLAUDE_EPOCH_SUFFIX,
    /** Prose: relative, zoned wall-clock, epoch field; {@link TextHints#parse}. */
    TEXT;

    /**
     * Runs this parser.
     *
     * @param value the selected text; {@code null} gives empty
     * @param base  the carrying signal's {@code occurred_at} (UTC)
     * @return the unvalidated hint (UTC), or empty; never throws for any text
     */
    public Optional<Instant> extract(String value, Instant base) {
        return switch (this) {
            case RETRY_AFTER_HEADER -> RetryAfterHeader.parse(value, base);
            case RETRY_AFTER_MS_HEADER -> RetryAfterHeader.parseMillis(value, base);
            case GO_DURATION -> GoDuration.resetAt(value, base);
            case RFC3339 -> Rfc3339.parse(value);
            case EPOCH -> EpochInstant.parse(value);
            case JSON_BODY -> JsonBodyHints.find(value, base);
            case CLAUDE_EPOCH_SUFFIX -> ClaudeEpochSuffix.parse(value);
            case TEXT -> TextHints.parse(value, base);
        };
    }

    /**
     * The extractor for a response header name, or empty when the header carries no timing
     * hint: {@code retry-after}, {@code retry-after-ms}, {@code x-ratelimit-reset-*},
     * {@code anthropic-ratelimit-*-reset} (case-insensitive).
     */
    public static Optional<HintExtractor> forHeader(String headerName) {
        if (headerName == null) {
            return Optional.empty();
        }
        String name = headerName.strip().toLowerCase(java.util.Locale.ROOT);
        if (name.equals("retry-after")) {
            return Optional.of(RETRY_AFTER_HEADER);
        }
        if (name.equals("retry-after-ms")) {
            return Optional.of(RETRY_AFTER_MS_HEADER);
        }
        if (name.startsWith("x-ratelimit-reset-")) {
            return Optional.of(GO_DURATION);
        }
        if (name.startsWith("anthropic-ratelimit-") && name.endsWith("-reset")) {
            return Optional.of(RFC3339);
        }
        return Optional.empty();
    }

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
