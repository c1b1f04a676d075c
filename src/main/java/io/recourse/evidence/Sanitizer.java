package io.recourse.evidence;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes secrets and personal data from evidence text before it is stored or written
 * (DESIGN §9).
 *
 * <p>What is replaced, and by what:
 * <ul>
 *   <li>URLs keep scheme and host only ({@code https://user:pw@host:443/a/b?q#f} becomes
 *       {@code https://host}); trailing sentence punctuation stays;</li>
 *   <li>JWTs, API keys and tokens with known shapes ({@code sk-…}, {@code sk-ant-…},
 *       {@code github_pat_…}, {@code ghp_…}/{@code gho_…}/{@code ghu_…}/{@code ghs_…}/{@code ghr_…},
 *       {@code AIza…}, {@code xox?-…}, {@code glpat-…}, {@code AKIA…}) become {@value #REDACTED};</li>
 *   <li>{@code Bearer <token>}, {@code Authorization: <value>}, {@code --api-key X} (and
 *       {@code --token}, {@code --password}, {@code --secret}), and key/value forms whose key names a
 *       secret ({@code password}, {@code secret}, {@code token}, {@code api_key}, {@code x-api-key},
 *       {@code client_secret}, {@code refresh_token}, {@code cookie}, … with {@code =} or {@code :},
 *       quoted or not, JSON included) keep the key and lose the value;</li>
 *   <li>e-mail addresses become {@value #EMAIL};</li>
 *   <li>home-directory user names ({@code /home/alice/}, {@code /Users/Jane Doe/},
 *       {@code C:\Users\alice\}) become {@value #USER};</li>
 *   <li>opaque ids ({@code ses_…}, {@code run_…}, {@code wrk_…}, {@code req_…}, {@code msg_…},
 *       {@code toolu_…}, UUIDs, …) keep a known prefix and lose the id ({@code ses_[id]});</li>
 *   <li>long base64-like runs (≥ 32 characters mixing letters and digits in one segment, or any
 *       run of ≥ 64 token characters) become {@value #REDACTED}.</li>
 * </ul>
 * Error codes, HTTP statuses, provider error types ({@code rate_limit_error}), model names,
 * timestamps, epoch suffixes ({@code |1767225600}) and timing text are left alone: the classifier
 * reads the sanitized text.
 *
 * <p>Bounded: the result is at most {@value #MAX_BYTES} UTF-8 bytes, cut on a code point boundary
 * and ending with {@value #TRUNCATED} when cut; inputs longer than {@value #MAX_INPUT_CHARS}
 * characters are first cut at a whitespace boundary so that the work is bounded. Idempotent:
 * {@code sanitize(sanitize(x)).equals(sanitize(x))}. All patterns use possessive or bounded
 * repetition so that adversarial inputs sanitize in linear-ish time.
 */
public final class Sanitizer {

    /** Largest result, in UTF-8 bytes (DESIGN §9: excerpts are bounded to 4 KiB). */
    public static final int MAX_BYTES = 4096;
    /** Inputs are cut to this many chars before redaction (whole output fits in far fewer). */
    static final int MAX_INPUT_CHARS = 64 * 1024;
    /** Replacement for a secret value. */
    public static final String REDACTED = "[redacted]";
    /** Replacement for an opaque id after its prefix. */
    public static final String ID = "[id]";
    /** Replacement for an e-mail address. */
    public static final String EMAIL = "<email>";
    /** Replacement for a home-directory user name. */
    public static final String USER = "<user>";
    /** Appended when the result was cut to {@link #MAX_BYTES}. */
    public static final String TRUNCATED = "…[truncated]";

    private static final int MAX_PASSES = 8;

    /** scheme://authority then path/query/fragment (up to whitespace, quotes, angle brackets). */
    private static final Pattern URL = Pattern.compile(
            "(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{0,15}+)://([^\\s/?#\"'<>\\\\`]*+)([/?#][^\\s\"'<>\\\\`]*+)?");

    /**
     * A URL inside JSON-escaped text ({@code https:\/\/user:pw@host\/path}): the same parts with
     * every {@code /} written {@code \/}.
     */
    private static final Pattern ESCAPED_URL = Pattern.compile(
            "(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{0,15}+):\\\\/\\\\/([^\\s/?#\"'<>\\\\`]*+)"
                    + "((?:\\\\/|[?#])(?:[^\\s\"'<>\\\\`]|\\\\/)*+)?");

    /** Longest host kept from a URL; a longer "host" is a user name or garbage and is redacted. */
    private static final int MAX_HOST_CHARS = 255;

    private static final Pattern JWT = Pattern.compile(
            "(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,2048}+\\.[A-Za-z0-9_-]{1,4096}+(?:\\.[A-Za-z0-9_-]{0,4096}+)?");

    private static final Pattern KNOWN_TOKEN = Pattern.compile(
            "(?<![A-Za-z0-9])(?:sk-[A-Za-z0-9_-]{8,1024}+"
                    + "|github_pat_[A-Za-z0-9_]{8,1024}+"
                    + "|gh[pousr]_[A-Za-z0-9]{8,1024}+"
                    + "|AIza[A-Za-z0-9_-]{20,1024}+"
                    + "|xox[abposr]-[A-Za-z0-9-]{8,1024}+"
                    + "|glpat-[A-Za-z0-9_-]{8,1024}+"
                    + "|(?:AKIA|ASIA)[A-Z0-9]{12,128}+)");

    /** An authentication scheme word followed by its credential. */
    private static final Pattern BEARER = Pattern.compile(
            "\\b(Bearer|bearer|BEARER|Basic|basic)(\\s{1,8}+)([A-Za-z0-9._~+/-]{8,4096}+=*+)");

    private static final Pattern AUTHORIZATION_HEADER = Pattern.compile(
            "(?i)\\b((?:proxy-)?authorization)([\"']?\\s{0,8}+:\\s{0,8}+)"
                    + "(?:(bearer|basic|token|digest)\\s{1,8}+)?(?!(?:bearer|basic|token|digest)\\s)"
                    + "([^\\s\"'\\[<,;]{1,4096}+)");

    private static final Pattern FLAG = Pattern.compile(
            "(?i)(--(?:api-?key|token|access-token|auth-token|password|secret|client-secret))(=|\\s{1,8}+)"
                    + "([^\\s\"'\\[<]{1,4096}+)");

    private static final String SECRET_KEY_WORD =
            "(?:password|passwd|passphrase|pass|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
                    + "|secret[_-]?key|session[_-]?key|cookie|authorization)";

    /**
     * key = value / key: value, key optionally quoted; the key ends in a secret word
     * ({@code client_secret}, {@code GITHUB_TOKEN}, {@code "x-api-key"}).
     */
    private static final Pattern KEY_VALUE = Pattern.compile(
            "(?i)(?<![A-Za-z0-9])((?:[A-Za-z0-9]{1,24}+[_.-]){0,4}" + SECRET_KEY_WORD + ")"
                    + "([\"']?\\s{0,8}+[:=]\\s{0,8}+)"
                    + "(?:\"((?:[^\"\\\\\\r\\n]|\\\\.){0,2048}+)\""
                    + "|'([^'\\r\\n]{0,2048}+)'"
                    + "|((?:(?:bearer|basic|token)\\s{1,8}+)?(?!(?:bearer|basic|token)\\s)"
                    + "[^\\s\"'\\[<,;&)}\\]]{1,2048}+))");

    /** An address with a dotted domain or at {@code localhost}; {@code @} also as JSON {@code \\u0040} or URL {@code %40}. */
    private static final Pattern EMAIL_ADDRESS = Pattern.compile(
            "(?<![A-Za-z0-9._%+-])(?:[A-Za-z0-9._%+-]{1,64}+@|[A-Za-z0-9._+-]{1,64}+(?:\\\\u0040|%40))"
                    + "(?:(?:[A-Za-z0-9-]{1,63}+\\.){1,8}[A-Za-z]{2,24}+|localhost)(?![A-Za-z0-9-])");

    /** Unix home dirs: a name with single spaces (only when a slash follows) or a plain word. */
    private static final Pattern UNIX_HOME = Pattern.compile(
            "(/(?:home|Users)/)(?:[\\w.@+-]{1,64}+(?: [\\w.@+-]{1,64}+){0,6}+(?=/)|[^\\s/\\\\\"'<>:;,]{1,128}+)");

    /** A home directory in JSON-escaped text ({@code \\/home\\/alice\\/}). */
    private static final Pattern ESCAPED_UNIX_HOME = Pattern.compile(
            "(\\\\/(?:home|Users)\\\\/)[^\\s/\\\\\"'<>:;,]{1,128}+");

    private static final Pattern WINDOWS_HOME = Pattern.compile(
            "(?i)\\b([A-Z]:(?:\\\\{1,2}+|/)Users(?:\\\\{1,2}+|/))(?:[\\w.@+-]{1,64}+(?: [\\w.@+-]{1,64}+){0,6}+(?=[\\\\/])"
                    + "|[^\\s/\\\\\"'<>:;,]{1,128}+)");

    private static final Pattern UUID = Pattern.compile(
            "(?<![A-Za-z0-9-])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![A-Za-z0-9-])");

    /** Known id prefixes with any id containing a digit, or any short prefix with a long id. */
    private static final Pattern OPAQUE_ID = Pattern.compile(
            "(?<![A-Za-z0-9_-])((?:ses|sess|session|run|wrk|workspace|msg|req|request|toolu|tool|call|resp|conv"
                    + "|thread|asst|file|org|proj|user|acct|prt|evt|job|batch|task|chatcmpl|cmpl|gen)[_-])"
                    + "(?=[A-Za-z]{0,256}+[0-9])([A-Za-z0-9]{3,256}+)(?![A-Za-z0-9_])"
                    + "|(?<![A-Za-z0-9_-])([a-z]{2,10}_)([A-Za-z0-9]{20,256}+)(?![A-Za-z0-9_])");

    /** Maximal runs of base64/base64url characters, judged by {@link #looksRandom(String)}. */
    private static final Pattern TOKEN_RUN = Pattern.compile(
            "(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{32,}+={0,2}+");

    private static final Pattern SEGMENT_SPLIT = Pattern.compile("[/_-]");

    /**
     * One redaction: its pattern, a cheap necessary condition for a match ({@code mayMatch}: a
     * literal or character every match contains; false only when the pattern cannot match, so
     * skipping the regex never changes the result — most evidence text holds no secret,
     * and the regex scans dominated evidence assembly), and the replacement.
     */
    private record Rule(Pattern pattern, Predicate<Text> mayMatch, Function<MatchResult, String> replacement) {
        String apply(Text t, boolean prefilter) {
            String text = t.text;
            if (prefilter && !mayMatch.test(t)) {
                return text;
            }
            Matcher m = pattern.matcher(text);
            if (!m.find()) {
                return text;
            }
            // Matcher.replaceAll(Function), continuing from the first match instead of searching it again.
            StringBuilder out = new StringBuilder(text.length());
            do {
                m.appendReplacement(out, Matcher.quoteReplacement(replacement.apply(m)));
            } while (m.find());
            m.appendTail(out);
            return out.toString();
        }
    }

    private static final List<Rule> RULES = List.of(
            new Rule(URL, t -> t.text.contains("://"), Sanitizer::urlSchemeAndHost),
            new Rule(ESCAPED_URL, t -> t.text.contains(":\\/\\/"), Sanitizer::escapedUrlSchemeAndHost),
            new Rule(JWT, t -> t.text.contains("eyJ"), r -> REDACTED),
            new Rule(KNOWN_TOKEN, t -> containsAny(t.text, "sk-", "github_pat_", "AIza", "xox", "glpat-", "AKIA", "ASIA")
                    || hasGitHubTokenPrefix(t.text),
                    r -> REDACTED),
            new Rule(AUTHORIZATION_HEADER, t -> t.lower().contains("authorization"), r -> r.group(1) + r.group(2)
                    + (r.group(3) == null ? "" : r.group(3) + " ") + REDACTED),
            new Rule(BEARER, t -> containsAny(t.lower(), "bearer", "basic"), r -> r.group(1) + r.group(2) + REDACTED),
            new Rule(FLAG, t -> t.text.contains("--"), r -> r.group(1) + r.group(2) + REDACTED),
            new Rule(KEY_VALUE, t -> (t.text.indexOf(':') >= 0 || t.text.indexOf('=') >= 0)
                    && containsAny(t.lower(), "pass", "pwd", "secret", "token", "key", "cookie", "authorization"),
                    Sanitizer::keyValue),
            new Rule(EMAIL_ADDRESS, t -> t.text.indexOf('@') >= 0 || t.text.contains("\\u0040") || t.text.contains("%40"),
                    r -> EMAIL),
            new Rule(UNIX_HOME, t -> t.text.contains("/home/") || t.text.contains("/Users/"), r -> r.group(1) + USER),
            new Rule(ESCAPED_UNIX_HOME, t -> t.text.contains("\\/home\\/") || t.text.contains("\\/Users\\/"),
                    r -> r.group(1) + USER),
            new Rule(WINDOWS_HOME, t -> t.text.indexOf(':') >= 0 && t.lower().contains("users"), r -> r.group(1) + USER),
            new Rule(UUID, t -> hasHexRunBeforeDash(t.text, 8), r -> ID),
            new Rule(OPAQUE_ID, t -> hasIdAfterSeparator(t.text),
                    r -> (r.group(1) != null ? r.group(1) : r.group(3)) + ID),
            new Rule(TOKEN_RUN, t -> hasTokenRun(t.text, 32), r -> looksRandom(r.group()) ? REDACTED : r.group()));

    /**
     * The text a rule's prefilter looks at, with its lower-case form computed at most once and
     * shared by the rules until one changes the text (each case-insensitive prefilter
     * lower-cased the whole text again).
     */
    private static final class Text {
        final String text;
        private String lower;

        Text(String text) {
            this.text = text;
        }

        /** ASCII-insensitive patterns ({@code (?i)} without UNICODE_CASE) match only where the lower-cased text holds the lower-case literal. */
        String lower() {
            if (lower == null) {
                lower = text.toLowerCase(Locale.ROOT);
            }
            return lower;
        }
    }

    private static boolean containsAny(String t, String... literals) {
        for (String l : literals) {
            if (t.contains(l)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code t} holds {@code gh[pousr]_} ({@link #KNOWN_TOKEN}'s GitHub token prefixes; "gh" alone is in many words). */
    private static boolean hasGitHubTokenPrefix(String t) {
        for (int i = t.indexOf("gh"); i >= 0 && i + 3 < t.length(); i = t.indexOf("gh", i + 1)) {
            if ("pousr".indexOf(t.charAt(i + 2)) >= 0 && t.charAt(i + 3) == '_') {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code t} has {@code min} hex digits directly before a {@code -} (every {@link #UUID} match starts so). */
    private static boolean hasHexRunBeforeDash(String t, int min) {
        int run = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
                run++;
            } else if (c == '-' && run >= min) {
                return true;
            } else {
                run = 0;
            }
        }
        return false;
    }

    /**
     * Whether {@code t} has what every {@link #OPAQUE_ID} match has: a {@code _} or {@code -}
     * followed by a run of ASCII letters and digits that holds a digit and has at least 3
     * characters (a known prefix), or — after {@code _} — has at least 20 (a short prefix).
     */
    private static boolean hasIdAfterSeparator(String t) {
        int i = 0;
        while (i < t.length()) {
            char sep = t.charAt(i++);
            if (sep != '_' && sep != '-') {
                continue;
            }
            int len = 0;
            boolean digit = false;
            while (i < t.length() && isAsciiAlnum(t.charAt(i))) {
                digit |= t.charAt(i) <= '9';
                len++;
                i++;
            }
            if (digit && len >= 3 || sep == '_' && len >= 20) {
                return true;
            }
        }
        return false;
    }

    private static boolean isAsciiAlnum(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }

    /** Whether {@code t} has a run of at least {@code min} characters of {@code [A-Za-z0-9+/_-]} ({@link #TOKEN_RUN}'s body). */
    private static boolean hasTokenRun(String t, int min) {
        int run = 0;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-') {
                if (++run >= min) {
                    return true;
                }
            } else {
                run = 0;
            }
        }
        return false;
    }

    private Sanitizer() {
    }

    /**
     * Sanitizes one piece of evidence text (DESIGN §9).
     *
     * @param text any text (stderr line, error message, HTTP body, …); {@code null} allowed
     * @return the sanitized text, at most {@value #MAX_BYTES} UTF-8 bytes; {@code null} for {@code null}
     */
    public static String sanitize(String text) {
        return sanitize(text, true);
    }

    /**
     * Sanitizes a short free-text field (a dispatcher's {@code reason_detail}, an id shown in a
     * label; DESIGN §9): {@link #sanitize(String)}, then cut to {@code maxChars} characters (on a
     * code point boundary, ending with {@value #TRUNCATED} when cut).
     *
     * @param maxChars the largest result, in chars, at least {@code TRUNCATED.length() + 1}
     * @return the sanitized text, or {@code null} for {@code null} or blank text
     */
    public static String sanitizeShort(String text, int maxChars) {
        if (maxChars <= TRUNCATED.length()) {
            throw new IllegalArgumentException("maxChars must exceed " + TRUNCATED.length() + ": " + maxChars);
        }
        if (text == null || text.isBlank()) {
            return null;
        }
        String clean = sanitize(text);
        if (clean.length() <= maxChars) {
            return clean;
        }
        int end = maxChars - TRUNCATED.length();
        if (Character.isHighSurrogate(clean.charAt(end - 1))) {
            end--;
        }
        return clean.substring(0, end) + TRUNCATED;
    }

    /** {@link #sanitize(String)}, with the rules' prefilters ({@code true}) or without (tests compare the two). */
    static String sanitize(String text, boolean prefilter) {
        if (text == null) {
            return null;
        }
        String current = capInput(text);
        // Redact, cut, and repeat until nothing changes: a fixpoint of this step is its own
        // sanitized form, which is what makes sanitize idempotent.
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            String next = truncate(redact(current, prefilter));
            if (next.equals(current)) {
                return next;
            }
            current = next;
        }
        return current;
    }

    private static String redact(String text, boolean prefilter) {
        Text current = new Text(text);
        for (Rule rule : RULES) {
            String result = rule.apply(current, prefilter);
            if (result != current.text) {
                current = new Text(result);
            }
        }
        return current.text;
    }

    private static String capInput(String text) {
        if (text.length() <= MAX_INPUT_CHARS) {
            return text;
        }
        int end = MAX_INPUT_CHARS;
        if (Character.isLowSurrogate(text.charAt(end))) {
            end--;
        }
        // Drop a partial word at the cut so that no fragment of a cut secret survives.
        int floor = Math.max(0, end - 1024);
        int cut = end;
        while (cut > floor && !Character.isWhitespace(text.charAt(cut - 1))) {
            cut--;
        }
        return text.substring(0, cut > floor ? cut : end);
    }

    /** Cuts to {@link #MAX_BYTES} UTF-8 bytes on a code point boundary, marking the cut. */
    static String truncate(String text) {
        if (utf8Length(text, MAX_BYTES + 1) <= MAX_BYTES) {
            return text;
        }
        int budget = MAX_BYTES - TRUNCATED.getBytes(StandardCharsets.UTF_8).length;
        int bytes = 0;
        int i = 0;
        while (i < text.length()) {
            int cp = text.codePointAt(i);
            int len = utf8Bytes(cp);
            if (bytes + len > budget) {
                break;
            }
            bytes += len;
            i += Character.charCount(cp);
        }
        return text.substring(0, i) + TRUNCATED;
    }

    private static int utf8Length(String text, int stopAfter) {
        int bytes = 0;
        for (int i = 0; i < text.length() && bytes < stopAfter; ) {
            int cp = text.codePointAt(i);
            bytes += utf8Bytes(cp);
            i += Character.charCount(cp);
        }
        return bytes;
    }

    private static int utf8Bytes(int cp) {
        if (cp < 0x80) {
            return 1;
        }
        if (cp < 0x800) {
            return 2;
        }
        if (cp < 0x10000) {
            return 3; // lone surrogates are encoded as '?' (1 byte) by Java; 3 is a safe upper bound
        }
        return 4;
    }

    private static String urlSchemeAndHost(MatchResult r) {
        String authority = r.group(2);
        int at = authority.lastIndexOf('@');
        String host = at >= 0 ? authority.substring(at + 1) : authority;
        if (host.startsWith("[")) {
            int close = host.indexOf(']');
            host = close > 0 ? host.substring(0, close + 1) : host;
        } else {
            int colon = host.indexOf(':');
            if (colon >= 0) {
                host = host.substring(0, colon);
            }
        }
        if (host.length() > MAX_HOST_CHARS) {
            host = REDACTED;
        }
        String rest = r.group(3) == null ? "" : r.group(3);
        // Keep sentence punctuation that followed the URL ("… see https://x.test/a.").
        int keep = rest.length();
        while (keep > 0 && ".,;:!?)]}".indexOf(rest.charAt(keep - 1)) >= 0) {
            keep--;
        }
        return r.group(1) + "://" + host + rest.substring(keep);
    }

    /** {@link #urlSchemeAndHost} for a JSON-escaped URL: {@code https:\\/\\/host}. */
    private static String escapedUrlSchemeAndHost(MatchResult r) {
        String authority = r.group(2);
        int at = authority.lastIndexOf('@');
        String host = at >= 0 ? authority.substring(at + 1) : authority;
        int colon = host.startsWith("[") ? -1 : host.indexOf(':');
        if (colon >= 0) {
            host = host.substring(0, colon);
        }
        if (host.length() > MAX_HOST_CHARS) {
            host = REDACTED;
        }
        return r.group(1) + ":\\/\\/" + host;
    }

    private static String keyValue(MatchResult r) {
        String key = r.group(1);
        String separator = r.group(2);
        if (r.group(3) != null) {
            return key + separator + "\"" + (r.group(3).isEmpty() ? "" : REDACTED) + "\"";
        }
        if (r.group(4) != null) {
            return key + separator + "'" + (r.group(4).isEmpty() ? "" : REDACTED) + "'";
        }
        String value = r.group(5);
        int space = indexOfWhitespace(value);
        String scheme = space > 0 ? value.substring(0, space) + " " : "";
        return key + separator + scheme + REDACTED;
    }

    private static int indexOfWhitespace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A run is a secret when it is very long (≥ 64 characters without a path separator), or when
     * one of its segments (split on {@code / _ -}) has ≥ 20 characters mixing letters and digits.
     * Model names ({@code claude-sonnet-4-5-20250929}) and error types have short segments.
     */
    static boolean looksRandom(String run) {
        String body = run.endsWith("=") ? run.replaceAll("=+$", "") : run;
        if (body.equals(REDACTED)) {
            return false;
        }
        if (looksLikeAwsSecretKey(body)) {
            return true;
        }
        for (String slashPart : body.split("/", -1)) {
            if (slashPart.length() >= 64) {
                return true;
            }
        }
        for (String segment : SEGMENT_SPLIT.split(body)) {
            if (segment.length() >= 20 && hasLetterAndDigit(segment)) {
                return true;
            }
        }
        return false;
    }

    /**
     * An AWS secret access key's shape: exactly 40 characters of {@code [A-Za-z0-9+/]} mixing upper
     * case, lower case and digits ({@code wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY}); its
     * {@code /}-separated parts are too short for the segment rule.
     */
    private static boolean looksLikeAwsSecretKey(String run) {
        if (run.length() != 40) {
            return false;
        }
        boolean upper = false;
        boolean lower = false;
        boolean digit = false;
        for (int i = 0; i < run.length(); i++) {
            char c = run.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                upper = true;
            } else if (c >= 'a' && c <= 'z') {
                lower = true;
            } else if (c >= '0' && c <= '9') {
                digit = true;
            } else if (c != '+' && c != '/') {
                return false;
            }
        }
        return upper && lower && digit;
    }

        private static boolean hasLetterAndDigit(String s) {
        boolean letter = false;
        boolean digit = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            letter |= Character.isLetter(c);
            digit |= Character.isDigit(c);
        }
        return letter && digit;
    }
}
