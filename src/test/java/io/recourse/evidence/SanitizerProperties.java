package io.recourse.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.StringLength;

/** Properties of {@link Sanitizer#sanitize(String)}: idempotent, bounded, fast (DESIGN §9). */
class SanitizerProperties {

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

    @Property(tries = 500)
    void sanitizingIsIdempotentForArbitraryStrings(@ForAll @StringLength(max = 300) String text) {
        String once = Sanitizer.sanitize(text);

        assertThat(Sanitizer.sanitize(once)).isEqualTo(once);
    }

    @Property(tries = 200)
    void sanitizedTextIsAtMostFourKibibytesForArbitraryStrings(@ForAll @StringLength(max = 9000) String text) {
        String sanitized = Sanitizer.sanitize(text);

        assertThat(sanitized.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(Sanitizer.MAX_BYTES);
        assertThat(Sanitizer.sanitize(sanitized)).isEqualTo(sanitized);
    }

    @Property(tries = 1000)
    void sanitizingIsIdempotentForSecretLikeText(@ForAll("secretLike") String text) {
        String once = Sanitizer.sanitize(text);

        assertThat(Sanitizer.sanitize(once)).isEqualTo(once);
    }

    @Property(tries = 100)
    void sanitizedSecretLikeTextIsBounded(@ForAll("longSecretLike") String text) {
        String sanitized = Sanitizer.sanitize(text);

        assertThat(sanitized.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(Sanitizer.MAX_BYTES);
        assertThat(Sanitizer.sanitize(sanitized)).isEqualTo(sanitized);
    }

    @Property(tries = 20)
    void adversarialHundredKilobyteInputsSanitizeInBoundedTime(@ForAll("adversarial") String text) {
        // Generous bound, far above the ~tens of milliseconds this takes: catastrophic
        // backtracking on 100 KB would take hours, so a slow shared machine cannot fail this.
        String sanitized = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> Sanitizer.sanitize(text));

        assertThat(sanitized.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(Sanitizer.MAX_BYTES);
    }

    @Provide
    Arbitrary<String> secretLike() {
        return fragments().list().ofMaxSize(30).map(parts -> String.join("", parts));
    }

    @Provide
    Arbitrary<String> longSecretLike() {
        return fragments().list().ofMinSize(200).ofMaxSize(2000).map(parts -> String.join("", parts));
    }

    @Provide
    Arbitrary<String> adversarial() {
        Arbitrary<String> unit = Arbitraries.of(
                "a", "sk-", "ghp_a", "a@", "a.", "/home/a ", "/Users/a b", "https://", "a-", "a_", "password=",
                "Bearer ", "eyJa.", "=", "token: ", "Authorization: ", "C:\\Users\\", "x", "0", "ses_1");
        return Combinators.combine(unit, Arbitraries.of(100_000, 70_000, 65_537))
                .as((u, size) -> u.repeat(size / u.length() + 1).substring(0, size));
    }

    private static Arbitrary<String> fragments() {
        return Arbitraries.oneOf(
                Arbitraries.of(SECRET_LIKE_FRAGMENTS),
                Arbitraries.strings().alpha().numeric().withChars("-_./+=").ofMaxLength(40));
    }
}
