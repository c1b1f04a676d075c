package io.recourse.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** Properties of {@link Sanitizer#sanitize(String)}: idempotent, bounded, fast (DESIGN §9). */
public class SanitizerProperties {

    /** Fixed so a failure reproduces on every machine; change it to explore other inputs. */
    private static final long SEED = 0x5A41_7153_0001L;

    private static final List<String> SECRET_LIKE_FRAGMENTS = List.of(
            "sk-", "sk-ant-api03-", "github_pat_", "ghp_", "gho_", "AIza", "Bearer ", "bearer ", "Basic ",
            "Authorization: ", "authorization\":\"", "--api-key ", "--api-key=", "password=", "password: ",
            "token=", "secret: ", "api_key\":\"", "client_secret = ", "eyJ", "eyJhbGciOiJIUzI1NiJ9.", ".",
            "https://", "http://", "user:pw@", "host.example", ":443", "/path/", "?q=1", "#frag", "@", ".com",
            "jane.doe", "/home/", "/Users/", "C:\\Users\\", "C:\\\\Users\\\\", "Jane Q", " ", "\n", "\"", "'",
            "=", ":", "/", "_", "-", "ses_", "run_", "wrk_", "req_", "toolu_", "0123456789", "abcdef",
            "ABCDEFGHIJ", "AAAAAAAAAAAAAAAAAAAAAAAA", "[redacted]", "<user>", "<email>", "[id]", "…[truncated]",
            "==", "rate_limit_error", "claude-sonnet-4-5-20250929", "|1767225600", "2026-06-01T12:00:00Z",
            "é", "😀", "\u0000");

    private static final String TOKEN_CHARS =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+=";

    private static final List<String> ADVERSARIAL_UNITS = List.of(
            "a", "sk-", "ghp_a", "a@", "a.", "/home/a ", "/Users/a b", "https://", "a-", "a_", "password=",
            "Bearer ", "eyJa.", "=", "token: ", "Authorization: ", "C:\\Users\\", "x", "0", "ses_1");

    @Test
    public void sanitizingIsIdempotentForArbitraryStrings() {
        theory(500).forAll(strings().allPossible().ofLengthBetween(0, 300)).checkAssert(text -> {
            String once = Sanitizer.sanitize(text);

            assertThat(Sanitizer.sanitize(once)).isEqualTo(once);
        });
    }

    @Test
    public void sanitizedTextIsAtMostFourKibibytesForArbitraryStrings() {
        theory(200).forAll(strings().allPossible().ofLengthBetween(0, 9000)).checkAssert(text -> {
            String sanitized = Sanitizer.sanitize(text);

            assertThat(sanitized.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(Sanitizer.MAX_BYTES);
            assertThat(Sanitizer.sanitize(sanitized)).isEqualTo(sanitized);
        });
    }

    @Test
    public void sanitizingIsIdempotentForSecretLikeText() {
        theory(1000).forAll(secretLike(0, 30)).checkAssert(text -> {
            String once = Sanitizer.sanitize(text);

            assertThat(Sanitizer.sanitize(once)).isEqualTo(once);
        });
    }

    @Test
    public void sanitizedSecretLikeTextIsBounded() {
        theory(100).forAll(secretLike(200, 2000)).checkAssert(text -> {
            String sanitized = Sanitizer.sanitize(text);

            assertThat(sanitized.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(Sanitizer.MAX_BYTES);
            assertThat(Sanitizer.sanitize(sanitized)).isEqualTo(sanitized);
        });
    }

    @Test
    public void adversarialHundredKilobyteInputsSanitizeInBoundedTime() {
        theory(20).forAll(adversarial()).checkAssert(text -> {
            // Generous bound, far above the ~tens of milliseconds this takes: catastrophic
            // backtracking on 100 KB would take hours, so a slow shared machine cannot fail this.
            String sanitized = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> Sanitizer.sanitize(text));

            assertThat(sanitized.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(Sanitizer.MAX_BYTES);
        });
    }

    private static QuickTheory theory(int examples) {
        return qt().withFixedSeed(SEED).withExamples(examples);
    }

    /** Concatenations of {@code min..max} fragments, each a known secret-like piece or a random token. */
    private static Gen<String> secretLike(int minFragments, int maxFragments) {
        return lists().of(fragments()).ofSizeBetween(minFragments, maxFragments).map(parts -> String.join("", parts));
    }

    private static Gen<String> fragments() {
        Gen<String> token = lists().of(Generate.pick(TOKEN_CHARS.chars().mapToObj(c -> (char) c).toList()))
                .ofSizeBetween(0, 40)
                .map(chars -> chars.stream().map(String::valueOf).collect(Collectors.joining()));
        return Generate.oneOf(Generate.pick(SECRET_LIKE_FRAGMENTS), token);
    }

    /** One unit repeated to exactly 100 000, 70 000 or 65 537 characters. */
    private static Gen<String> adversarial() {
        return Generate.pick(ADVERSARIAL_UNITS).zip(Generate.pick(List.of(100_000, 70_000, 65_537)),
                (unit, size) -> unit.repeat(size / unit.length() + 1).substring(0, size))
                .describedAs(text -> "\"" + text.substring(0, 40) + "…\" (" + text.length() + " chars)");
    }
}
