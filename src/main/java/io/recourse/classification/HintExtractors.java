package io.recourse.classification;

import io.recourse.classification.hints.ClaudeEpochSuffix;
import io.recourse.classification.hints.EpochInstant;
import io.recourse.classification.hints.GoDuration;
import io.recourse.classification.hints.HintValidator;
import io.recourse.classification.hints.JsonBodyHints;
import io.recourse.classification.hints.RetryAfterHeader;
import io.recourse.classification.hints.Rfc3339;
import io.recourse.classification.hints.TextHints;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The named hint extractors a rule may list under {@code hints} (DESIGN §5.2). Each reads one
 * signal and returns candidate instants (unvalidated, resolved against the signal's
 * {@code occurred_at}); the classifier validates them with
 * {@link HintValidator#validate(Instant, Instant, java.time.Duration)}. The parsing itself lives in
 * the {@code io.recourse.classification.hints} parsers: this class only decides which signal
 * fields each named extractor reads and which of several header resets applies.
 */
public final class HintExtractors {

    private static final Map<String, BiFunction<Signal, Integer, List<Instant>>> EXTRACTORS = Map.ofEntries(
            Map.entry("retry_after_header", (s, n) -> header(s, "retry-after", v -> RetryAfterHeader.parse(v, s.occurredAt()))),
            Map.entry("retry_after_ms_header", (s, n) -> header(s, "retry-after-ms", v -> RetryAfterHeader.parseMillis(v, s.occurredAt()))),
            Map.entry("x_ratelimit_reset_headers", (s, n) -> exhausted(s, HintExtractors::xRatelimitRemaining,
                    v -> GoDuration.resetAt(v, s.occurredAt()))),
            // RFC 3339 per limit; epoch seconds for the unified (subscription) limits
            Map.entry("anthropic_ratelimit_reset_headers", (s, n) -> exhausted(s, HintExtractors::anthropicRemaining,
                    v -> Rfc3339.parse(v).or(() -> EpochInstant.parse(v)))),
            Map.entry("codex_usage_reset_headers", (s, n) -> codexUsage(s)),
            Map.entry("body_resets_at", (s, n) -> each(s, n, JsonBodyHints::resetsAt)),
            Map.entry("body_resets_in_seconds", (s, n) -> each(s, n, v -> JsonBodyHints.resetsInSeconds(v, s.occurredAt()))),
            Map.entry("body_retry_delay", (s, n) -> each(s, n, v -> JsonBodyHints.retryDelay(v, s.occurredAt()))),
            Map.entry("claude_epoch_suffix", (s, n) -> each(s, n, ClaudeEpochSuffix::parse)),
            Map.entry("text_relative", (s, n) -> each(s, n, v -> TextHints.relative(v, s.occurredAt()))),
            Map.entry("text_zoned_wall_clock", (s, n) -> each(s, n, v -> TextHints.wallClock(v, s.occurredAt()))),
            Map.entry("text_epoch_reset", (s, n) -> each(s, n, TextHints::epochField)));

    /** Every extractor name a rule may use. */
    static final Set<String> NAMES = EXTRACTORS.keySet();

    private HintExtractors() {
    }

    /** Candidate instants of extractor {@code name} in {@code signal}, fields bounded to {@code maxChars}. */
    static List<Instant> extract(String name, Signal signal, int maxChars) {
        try {
            return EXTRACTORS.get(name).apply(signal, maxChars);
        } catch (RuntimeException e) {
            return List.of(); // a malformed hint is dropped, never guessed
        }
    }

    private static List<Instant> header(Signal s, String name, Function<String, Optional<Instant>> parse) {
        if (s.kind() != SignalKind.HTTP) {
            return List.of();
        }
        return parse.apply(s.field("header." + name)).stream().toList();
    }

    /**
     * Resets of the exhausted limits (remaining {@code 0}) when known, else all of them.
     *
     * @param remainingKey the field holding the remaining count of the limit a reset field
     *                     belongs to, or {@code null} when the field is not a reset of this family
     */
    private static List<Instant> exhausted(Signal s, UnaryOperator<String> remainingKey,
                                           Function<String, Optional<Instant>> parse) {
        if (s.kind() != SignalKind.HTTP) {
            return List.of();
        }
        List<Instant> all = new ArrayList<>();
        List<Instant> spent = new ArrayList<>();
        for (Map.Entry<String, String> e : s.fields().entrySet()) {
            String remaining = remainingKey.apply(e.getKey());
            if (remaining == null) {
                continue;
            }
            Optional<Instant> at = parse.apply(e.getValue());
            if (at.isEmpty()) {
                continue;
            }
            all.add(at.get());
            if ("0".equals(s.field(remaining))) {
                spent.add(at.get());
            }
        }
        return spent.isEmpty() ? all : spent;
    }

    /** {@code header.x-ratelimit-reset-<limit>} → {@code header.x-ratelimit-remaining-<limit>}. */
    private static String xRatelimitRemaining(String key) {
        String reset = "header.x-ratelimit-reset-";
        return key.startsWith(reset) ? "header.x-ratelimit-remaining-" + key.substring(reset.length()) : null;
    }

    /** {@code header.anthropic-ratelimit-<limit>-reset} → {@code header.anthropic-ratelimit-<limit>-remaining}. */
    private static String anthropicRemaining(String key) {
        if (!key.startsWith("header.anthropic-ratelimit-") || !key.endsWith("-reset")) {
            return null;
        }
        return key.substring(0, key.length() - "-reset".length()) + "-remaining";
    }

    private static List<Instant> codexUsage(Signal s) {
        if (s.kind() != SignalKind.HTTP) {
            return List.of();
        }
        List<Instant> out = new ArrayList<>();
        for (String window : List.of("primary", "secondary")) {
            String used = s.field("header.x-codex-" + window + "-used-percent");
            Optional<Instant> at = EpochInstant.parse(s.field("header.x-codex-" + window + "-reset-at"));
            if (at.isPresent() && used != null && used.trim().matches("\\d{1,3}(\\.\\d{1,4})?")
                    && Double.parseDouble(used.trim()) >= 100) {
                out.add(at.get());
            }
        }
        return out;
    }

    private static List<Instant> each(Signal s, int maxChars, Function<String, Optional<Instant>> parse) {
        List<Instant> out = new ArrayList<>();
        for (Map.Entry<String, String> e : s.fields().entrySet()) {
            if (e.getKey().startsWith("header.")) {
                continue;
            }
            parse.apply(Rule.bound(e.getValue(), maxChars)).ifPresent(out::add);
        }
        return out;
    }
}
