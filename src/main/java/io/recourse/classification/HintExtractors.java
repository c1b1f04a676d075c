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

/**
 * The named hint extractors a rule may list under {@code hints} (DESIGN §5.2). Each reads one
 * signal and returns candidate instants (unvalidated, resolved against the signal's
 * {@code occurred_at}); the classifier validates them with
 * {@link HintValidator#validate(Instant, Instant, java.time.Duration)}. The parsing itself lives in
 * the {@code io.recourse.classification.hints} parsers: this class only decides which signal
 * fields each named extractor reads and which of several header resets applies.
 */
final class HintExtractors {

    private static final Map<String, BiFunction<Signal, Integer, List<Instant>>> EXTRACTORS = Map.ofEntries(
            Map.entry("retry_after_header", (s, n) -> header(s, "retry-after", v -> RetryAfterHeader.parse(v, s.occurredAt()))),
            Map.entry("retry_after_ms_header", (s, n) -> header(s, "retry-after-ms", v -> RetryAfterHeader.parseMillis(v, s.occurredAt()))),
            Map.entry("x_ratelimit_reset_headers", (s, n) -> exhausted(s, "x-ratelimit-reset-", "x-ratelimit-remaining-",
                    v -> GoDuration.resetAt(v, s.occurredAt()))),
            // RFC 3339 per limit; epoch seconds for the unified (subscription) limits
            Map.entry("anthropic_ratelimit_reset_headers", (s, n) -> anthropic(s)),
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

    private static List<Instant> header(Signal s, String name, java.util.function.Function<String, Optional<Instant>> parse) {
        if (s.kind() != SignalKind.HTTP) {
            return List.of();
        }
        return parse.apply(s.field("header." + name)).stream().toList();
    }

    /** Resets of the exhausted limits (remaining 0) when known, else all of them. */
    private static List<Instant> exhausted(Signal s, String resetPrefix, String remainingPrefix,
                                           java.util.function.Function<String, Optional<Instant>> parse) {
        if (s.kind() != SignalKind.HTTP) {
            return List.of();
        }
        List<Instant> all = new ArrayList<>();
        List<Instant> spent = new ArrayList<>();
        for (Map.Entry<String, String> e : s.fields().entrySet()) {
            String key = e.getKey();
            if (!key.startsWith("header." + resetPrefix)) {
                continue;
            }
            Optional<Instant> at = parse.apply(e.getValue());
            if (at.isEmpty()) {
                continue;
            }
            all.add(at.get());
            String which = key.substring(("header." + resetPrefix).length());
            if ("0".equals(s.field("header." + remainingPrefix + which))) {
                spent.add(at.get());
            }
        }
        return spent.isEmpty() ? all : spent;
    }

    private static List<Instant> anthropic(Signal s) {
        if (s.kind() != SignalKind.HTTP) {
            return List.of();
        }
        List<Instant> all = new ArrayList<>();
        List<Instant> spent = new ArrayList<>();
        for (Map.Entry<String, String> e : s.fields().entrySet()) {
            String key = e.getKey();
            if (!key.startsWith("header.anthropic-ratelimit-") || !key.endsWith("-reset")) {
                continue;
            }
            Optional<Instant> at = Rfc3339.parse(e.getValue()).or(() -> EpochInstant.parse(e.getValue()));
            if (at.isEmpty()) {
                continue;
            }
            all.add(at.get());
            String remaining = key.substring(0, key.length() - "-reset".length()) + "-remaining";
            if ("0".equals(s.field(remaining))) {
                spent.add(at.get());
            }
        }
        return spent.isEmpty() ? all : spent;
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

    private static List<Instant> each(Signal s, int maxChars, java.util.function.Function<String, Optional<Instant>> parse) {
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
