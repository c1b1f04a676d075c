package io.recourse.classification.hints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The hint parsers' issue-8 shortcuts change no answer: {@link TextHints} (regexes tried only
 * where a trigger word starts), {@link ClaudeEpochSuffix} (searched from the first {@code |}),
 * {@link Durations} (whole numbers in long arithmetic) and {@link JsonBodyHints} (texts that
 * cannot name the field are not parsed) answer exactly as the plain versions kept in
 * {@code TextHintsReference}, {@code ClaudeEpochSuffixReference} and {@code DurationsReference}
 * (the code before the change) and as parsing every text. Fixed seed.
 */
class HintFastPathProperties {

    private static final long SEED = 0x5A41_7153_0B17L;
    private static final Instant BASE = Instant.parse("2026-06-01T12:00:00Z");

    private static final List<String> PIECES = List.of(" ", "  ", "\t", "\n", ",", ".", ":", "=", "\"", "'", "(", ")",
            "{", "}", "|", "-", "_", "and", "a", "will ", "Retrying", "retrying in 5s", "retry", "RETRY", "Retry-After",
            "retry-after-ms", "retry-after:", "reset", "Resets", "RESETS", "resets in", "reset in", "try", "Try again",
            "try  again", "TRY AGAIN", "in", "after", "at", "attempt", "(attempt 2/10)", "0", "1", "5", "20", "25.46",
            "4hr", "19min", "1 hour", "5 minutes", "2 hours", "30 seconds", "1m30s", "ms", "s", "m", "h", "d", "days",
            "999999999", "9:10pm", "21:10", "4:00 AM", "12:00 am", "UTC", "GMT", "Z", "+02:00", "-0500", "UTC+5:30",
            "America/New_York", "(UTC)", "Europe/Paris", "reset_time", "resets_at", "resetsAt", "reset_at", "1752624000",
            "1780326300", "1780326300000", "2026-06-01T15:00:00Z", "2026-06-01 15:00:00.5+01:00", "|1767225600",
            "|1767225600123", "Claude AI usage limit reached", "\"resets_in_seconds\": 3600", "\"retryDelay\": \"25s\"",
            "\"retry_delay\": 7", "{\"error\":{\"message\":\"", "\\u0072esets_at", "\\\"", "é", "İ", "\u212A", "\uFF11",
            "\u0661\u0662", "😀", "wİll", "reſet",
            // whole hints, so that generated texts hold some
            "resets in 4hr 19min", "try again in 20s", "will retry in 3s", "Retrying in 5s", "retry-after: 60",
            "retry-after-ms=2500", "resets at 9:10pm (UTC)", "try again at 21:10 UTC", "reset_time: 1752624000",
            "resets_at=1780326300", "reset_at: 2026-06-01T15:00:00Z", "retry after 2 hours (attempt 1)",
            "will reset in 5 minutes", "RESETS 4:00 AM America/New_York", "ReSeT_At=\"1780326300123\"");

    /** 1..16 pieces joined, some letters' case flipped at random. */
    private static Gen<String> texts() {
        return lists().of(Generate.pick(PIECES)).ofSizeBetween(1, 16).zip(integers().all(), (parts, seed) -> {
            String s = String.join(PIECES.get(Math.floorMod(seed, 3)), parts);
            Random r = new Random(seed);
            if (r.nextBoolean()) {
                return s;
            }
            char[] out = s.toCharArray();
            for (int i = 0; i < out.length; i++) {
                if (r.nextInt(5) == 0) {
                    out[i] = Character.isUpperCase(out[i]) ? Character.toLowerCase(out[i]) : Character.toUpperCase(out[i]);
                }
            }
            return new String(out);
        });
    }

    @Test
    void textHintsAnswerAsThePlainRegexLoops() {
        qt().withFixedSeed(SEED).withExamples(5000).forAll(texts()).checkAssert(text -> {
            assertThat(TextHints.relative(text, BASE)).as("relative: %s", text).isEqualTo(TextHintsReference.relative(text, BASE));
            assertThat(TextHints.wallClock(text, BASE)).as("wall clock: %s", text).isEqualTo(TextHintsReference.wallClock(text, BASE));
            assertThat(TextHints.epochField(text)).as("epoch field: %s", text).isEqualTo(TextHintsReference.epochField(text));
            assertThat(ClaudeEpochSuffix.parse(text)).as("epoch suffix: %s", text).isEqualTo(ClaudeEpochSuffixReference.parse(text));
        });
    }

    @Test
    void theGeneratedTextsHoldHints() {
        List<String> samples = new ArrayList<>();
        qt().withFixedSeed(SEED).withExamples(5000).forAll(texts()).checkAssert(samples::add);
        long relative = samples.stream().filter(t -> TextHintsReference.relative(t, BASE).isPresent()).count();
        long wallClock = samples.stream().filter(t -> TextHintsReference.wallClock(t, BASE).isPresent()).count();
        long epoch = samples.stream().filter(t -> TextHintsReference.epochField(t).isPresent()).count();

        assertThat(relative).as("texts with a relative hint").isGreaterThan(100);
        assertThat(wallClock).as("texts with a wall-clock hint").isGreaterThan(5);
        assertThat(epoch).as("texts with an epoch field").isGreaterThan(20);
    }

    @Test
    void wholeNumberDurationsAreTheDecimalOnes() {
        long[] units = {1_000_000L, 1_000_000_000L, 60_000_000_000L, 3_600_000_000_000L, 86_400_000_000_000L};
        qt().withFixedSeed(SEED).withExamples(3000)
                .forAll(integers().between(0, 18), integers().all(), integers().between(0, units.length - 1))
                .checkAssert((digits, seed, u) -> {
                    Random r = new Random(seed);
                    StringBuilder b = new StringBuilder();
                    for (int i = 0; i < digits; i++) {
                        b.append((char) ('0' + r.nextInt(10)));
                    }
                    String amount = b.toString();
                    assertThat(Durations.of(amount, units[u])).as("%s × %d ns", amount, units[u])
                            .isEqualTo(DurationsReference.of(amount, units[u]));
                });
    }

    @Test
    void jsonBodyHintsAnswerAsParsingEveryText() {
        qt().withFixedSeed(SEED).withExamples(3000).forAll(texts()).checkAssert(t -> {
            String json = t.contains("{") ? t : "{\"error\":{\"message\":\"" + t.replace("\"", "'") + "\"," + t + "}}";
            assertThat(JsonBodyHints.resetsAt(json)).as(json)
                    .isEqualTo(JsonBodyHints.parse(json).flatMap(JsonBodyHints::resetsAt));
            assertThat(JsonBodyHints.resetsInSeconds(json, BASE)).as(json)
                    .isEqualTo(JsonBodyHints.parse(json).flatMap(n -> JsonBodyHints.resetsInSeconds(n, BASE)));
            assertThat(JsonBodyHints.retryDelay(json, BASE)).as(json)
                    .isEqualTo(JsonBodyHints.parse(json).flatMap(n -> JsonBodyHints.retryDelay(n, BASE)));
        });
        String escaped = "{\"\\u0072esets_at\": 1780326300}";
        assertThat(JsonBodyHints.resetsAt(escaped)).contains(Instant.ofEpochSecond(1780326300L));
        assertThat(JsonBodyHints.resetsAt("{\"resets_at\": 1780326300}".toUpperCase(Locale.ROOT))).isEmpty();
    }
}
