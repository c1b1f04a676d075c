package io.recourse.classification;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A catalogue regex's {@code find()}, computed faster (the catalogue's case-insensitive
 * alternations of dozens of branches were tried at every position of every field of every
 * signal for every rule, and dominated classification time).
 *
 * <p>The pattern is split into its top-level alternatives ({@code find()} of {@code A|B} is
 * {@code find(A) || find(B)}); each alternative that begins with a literal of at least
 * {@value #MIN_LITERAL} characters, or with a non-optional {@code (?:…)} group whose alternatives
 * do (recursively; after zero-width prefixes: {@code ^}, {@code \b} and lookbehinds), a match
 * must start with one of those literals; so on a text containing none of them that alternative
 * is not run. Case-insensitive patterns (ASCII folding,
 * no {@code UNICODE_CASE}) compare against the lower-cased text. A pattern without such literals
 * (an alternative opening with a group, a class, an escape class, or a shorter literal) gets no
 * prefilter and always runs; a pattern that cannot be split safely (an unscoped inline flag such as {@code (?i)}, back
 * references, quoting) runs whole. Only pure-ASCII literals are used. The result is always the
 * regex's own; {@code RegexPrefilterProperties} checks it on the catalogue's patterns.
 */
public final class RegexPrefilter {

    /** Shortest literal worth a prefilter. */
    static final int MIN_LITERAL = 2;

    private static final Map<Pattern, RegexPrefilter> CACHE = new ConcurrentHashMap<>();

    /**
     * One top-level alternative: its pattern, the literals one of which starts each of its matches
     * ({@code null}: none known), and a literal every match contains somewhere ({@code null}: none known).
     */
    record Part(Pattern pattern, String[] literals, String required, int window) {

        /** An ordinary part: {@code find()} of {@code pattern} anywhere. */
        Part(Pattern pattern, String[] literals, String required) {
            this(pattern, literals, required, -1);
        }

        /**
         * Exactly {@code find()} of the alternative this part stands for: {@code pattern.find()}, or
         * with a {@link #window} a match of {@code pattern} starting at a code-point boundary
         * within the window ({@link #windowFind}).
         */
        boolean find(String text) {
            return window < 0 ? pattern.matcher(text).find() : windowFind(pattern, text, window);
        }
    }

    private final Part[] parts;
    private final boolean ignoreCase;

    private RegexPrefilter(Part[] parts, boolean ignoreCase) {
        this.parts = parts;
        this.ignoreCase = ignoreCase;
    }

    /** The prefiltered form of {@code pattern} (computed once per compiled pattern). */
    public static RegexPrefilter of(Pattern pattern) {
        return CACHE.computeIfAbsent(pattern, RegexPrefilter::derive);
    }

    /**
     * Exactly {@code pattern.matcher(text).find()}: true when some top-level alternative finds a
     * match; an alternative whose leading literals are all absent from {@code text} is not run.
     */
    public boolean find(String text) {
        String folded = null;
        for (Part p : parts) {
            if (p.literals() != null || p.required() != null) {
                if (folded == null) {
                    folded = ignoreCase ? fold(text) : text;
                }
                if (p.required() != null && !folded.contains(p.required())
                        || p.literals() != null && !containsAny(folded, p.literals())) {
                    continue;
                }
            }
            if (p.find(text)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code pattern} matches {@code text} from a position {@code p} at a code-point
     * boundary with at most {@code window} code points before it, reading the whole text (transparent,
     * non-anchoring bounds: lookbehinds, {@code \b}, {@code ^} and {@code $} see it as it is). This
     * is {@code find()} of {@code ^[\s\S]{0,window}(?:pattern)} ({@link #windowed}).
     */
    static boolean windowFind(Pattern pattern, String text, int window) {
        Matcher m = pattern.matcher(text).useTransparentBounds(true).useAnchoringBounds(false);
        int n = text.length();
        for (int from = 0; from <= n; ) {
            if (!m.region(from, n).find()) {
                return false;
            }
            int s = m.start();
            if (!inWindow(text, s, window)) {
                return false; // the leftmost start is past the window: so is every later one
            }
            if (boundary(text, s)) {
                return true;
            }
            from = s + 1;
        }
        return false;
    }

    /** Whether {@code text} has at most {@code window} code points before index {@code p}. */
    static boolean inWindow(String text, int p, int window) {
        return p <= window || p <= 2 * window && text.codePointCount(0, p) <= window;
    }

    /** Whether index {@code p} of {@code text} is not inside a surrogate pair (where {@code [\s\S]} steps can reach). */
    static boolean boundary(String text, int p) {
        return p == 0 || p >= text.length() || !Character.isLowSurrogate(text.charAt(p))
                || !Character.isHighSurrogate(text.charAt(p - 1));
    }

    /** Per thread, the last lower-cased texts by identity: every rule reads the same field strings of a turn's signals. */
    private static final ThreadLocal<String[]> FOLDED = ThreadLocal.withInitial(() -> new String[2 * 64]);

    /** {@code text.toLowerCase(Locale.ROOT)}, remembered for the same {@code text} instance. */
    static String fold(String text) {
        String[] cache = FOLDED.get();
        int i = (System.identityHashCode(text) & 63) << 1;
        if (cache[i] == text) {
            return cache[i + 1];
        }
        String folded = text.toLowerCase(Locale.ROOT);
        cache[i] = text;
        cache[i + 1] = folded;
        return folded;
    }

    private static boolean containsAny(String text, String[] literals) {
        for (String l : literals) {
            if (text.contains(l)) {
                return true;
            }
        }
        return false;
    }

    /** The top-level alternatives with their literals (folded when {@link #ignoreCase()}), for {@link RuleIndex}. */
    List<Part> parts() {
        return List.of(parts);
    }

    /** Whether the pattern is {@code CASE_INSENSITIVE} (its literals are then lower case). */
    boolean ignoreCase() {
        return ignoreCase;
    }

    /** Every alternative's literals, or {@code null} when some alternative has none (for tests and reports). */
    List<String> literals() {
        List<String> out = new ArrayList<>();
        for (Part p : parts) {
            if (p.literals() == null) {
                return null;
            }
            out.addAll(List.of(p.literals()));
        }
        return out;
    }

    /** How many of the top-level alternatives have literals. */
    int prefilteredParts() {
        int n = 0;
        for (Part p : parts) {
            n += p.literals() == null && p.required() == null ? 0 : 1;
        }
        return n;
    }

    private static RegexPrefilter derive(Pattern pattern) {
        int flags = pattern.flags();
        boolean ci = (flags & Pattern.CASE_INSENSITIVE) != 0;
        RegexPrefilter whole = new RegexPrefilter(new Part[] {new Part(pattern, null, null)}, ci);
        String re = pattern.pattern();
        if ((flags & (Pattern.UNICODE_CASE | Pattern.LITERAL | Pattern.COMMENTS | Pattern.CANON_EQ)) != 0
                || re.contains("\\Q") || hasInlineFlags(re) || hasBackReference(re)) {
            return whole;
        }
        List<String> alternatives = splitTopLevel(re);
        if (alternatives == null) {
            return whole;
        }
        List<Part> parts = new ArrayList<>();
        for (String top : alternatives) {
            Windowed w = (flags & Pattern.MULTILINE) == 0 ? windowed(top) : null;
            List<String> pieces = w == null ? List.of(top) : w.alternatives();
            for (String alt : pieces) {
                Pattern compiled;
                try {
                    compiled = alternatives.size() == 1 && w == null ? pattern : Pattern.compile(alt, flags);
                } catch (java.util.regex.PatternSyntaxException e) {
                    return whole;
                }
                List<String> lits = leadingSet(alt);
                String[] folded = null;
                if (lits != null) {
                    folded = lits.stream().map(l -> ci ? l.toLowerCase(Locale.ROOT) : l).toArray(String[]::new);
                }
                String required = requiredRun(alt);
                if (required != null && ci) {
                    required = required.toLowerCase(Locale.ROOT);
                }
                parts.add(new Part(compiled, folded, required, w == null ? -1 : w.window()));
            }
        }
        return new RegexPrefilter(parts.toArray(Part[]::new), ci);
    }

    /** A top-level alternative {@code ^[\s\S]{0,window}R} read as the alternatives of {@code R}, each to start within the window. */
    record Windowed(int window, List<String> alternatives) {
    }

    private static final Pattern WINDOW_PREFIX = Pattern.compile("\\^\\[(?:\\\\s\\\\S|\\\\S\\\\s)\\]\\{0,([0-9]{1,4})\\}\\??");

    /**
     * {@code alt} of the form {@code ^[\s\S]{0,N}R} (or {@code [\S\s]}, lazy or not; the pattern
     * without {@code MULTILINE}): a match is a match of {@code R} starting after at most N code
     * points, so {@code find()} of it is {@link #windowFind} of {@code R} with window N. {@code R}
     * a non-optional {@code (?:A|B|…)S} is read as {@code (?:A)S}, {@code (?:B)S}, … ({@code A},
     * {@code B}, … when {@code S} is empty), so that each gets its own leading literals. {@code null}
     * for any other form.
     */
    static Windowed windowed(String alt) {
        Matcher m = WINDOW_PREFIX.matcher(alt);
        if (!m.lookingAt() || m.end() == alt.length()) {
            return null;
        }
        int window = Integer.parseInt(m.group(1));
        String rest = alt.substring(m.end());
        if ("?*+{".indexOf(rest.charAt(0)) >= 0 || rest.charAt(0) == '|') {
            return null;
        }
        if (rest.startsWith("(?:")) {
            int end = groupEnd(rest, 0);
            if (end > 0 && (end + 1 == rest.length() || "?*+{".indexOf(rest.charAt(end + 1)) < 0)) {
                List<String> inner = splitTopLevel(rest.substring(3, end));
                String suffix = rest.substring(end + 1);
                if (inner != null && inner.stream().noneMatch(String::isEmpty)) {
                    List<String> out = new ArrayList<>();
                    for (String a : inner) {
                        out.add(suffix.isEmpty() ? a : "(?:" + a + ")" + suffix);
                    }
                    return new Windowed(window, out);
                }
            }
        }
        return new Windowed(window, List.of(rest));
    }

    /** Whether {@code re} refers back to a group ({@code \1}, {@code \k<name>}): its alternatives cannot be split. */
    private static boolean hasBackReference(String re) {
        for (int i = 0; i + 1 < re.length(); i++) {
            if (re.charAt(i) == '\\') {
                char n = re.charAt(i + 1);
                if (n >= '1' && n <= '9' || n == 'k') {
                    return true;
                }
                i++;
            }
        }
        return false;
    }

    /**
     * Whether {@code re} has an inline flag setting that reaches past its own group, such as
     * {@code (?i)}, or one that changes the syntax ({@code x}, {@code U}): its alternatives cannot be
     * split. A scoped group of case, dot-all or line flags ({@code (?i:…)}, {@code (?-i:…)},
     * {@code (?s:…)}) keeps its flags inside: an alternative holding it compiles alone to the same
     * matches, and the literal readers treat its content as unknown.
     */
    private static boolean hasInlineFlags(String re) {
        for (int i = 0; i + 2 < re.length(); i++) {
            if (re.charAt(i) == '\\') {
                i++;
                continue;
            }
            if (re.charAt(i) == '(' && re.charAt(i + 1) == '?') {
                char c = re.charAt(i + 2);
                if (Character.isLetter(c) || c == '-') {
                    int k = i + 2;
                    while (k < re.length() && "imsdu-".indexOf(re.charAt(k)) >= 0) {
                        k++;
                    }
                    if (k == re.length() || re.charAt(k) != ':') {
                        return true; // (?i) to the end of the enclosing group, or a flag not modelled
                    }
                }
            }
        }
        return false;
    }

    /** The top-level alternatives of {@code re}, or {@code null} when it cannot be split safely. */
    static List<String> splitTopLevel(String re) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        boolean inClass = false;
        int start = 0;
        for (int i = 0; i < re.length(); i++) {
            char c = re.charAt(i);
            if (c == '\\') {
                i++;
                continue;
            }
            if (inClass) {
                if (c == ']') {
                    inClass = false;
                }
                continue;
            }
            switch (c) {
                case '[' -> {
                    inClass = true;
                    // a ']' right after '[' or '[^' is a literal member
                    if (i + 1 < re.length() && re.charAt(i + 1) == '^') {
                        i++;
                    }
                    if (i + 1 < re.length() && re.charAt(i + 1) == ']') {
                        i++;
                    }
                }
                case '(' -> depth++;
                case ')' -> depth--;
                case '|' -> {
                    if (depth == 0) {
                        out.add(re.substring(start, i));
                        start = i + 1;
                    }
                }
                default -> {
                }
            }
            if (depth < 0) {
                return null;
            }
        }
        if (depth != 0 || inClass) {
            return null;
        }
        out.add(re.substring(start));
        return out;
    }

    /**
     * The literal every match of {@code alt} starts with (after zero-width prefixes), or
     * {@code null}. An atom followed by a quantifier that allows zero ({@code ?}, {@code *},
     * {@code {}) ends the literal without it; one followed by {@code +} ends it with it.
     */
    static String leadingLiteral(String alt) {
        int i = skipZeroWidth(alt);
        if (i < 0) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        while (i < alt.length()) {
            char c = alt.charAt(i);
            char literal;
            int width;
            if (c == '\\') {
                if (i + 1 >= alt.length()) {
                    return null;
                }
                char n = alt.charAt(i + 1);
                if (Character.isLetterOrDigit(n)) {
                    break; // \s \d \w \b \1 \x… — not a plain literal
                }
                literal = n;
                width = 2;
            } else if ("[](){}.*+?^$|".indexOf(c) >= 0) {
                break;
            } else {
                literal = c;
                width = 1;
            }
            int next = i + width;
            if (next < alt.length()) {
                char q = alt.charAt(next);
                if (q == '?' || q == '*' || q == '{') {
                    break;
                }
                if (q == '+') {
                    b.append(literal);
                    break;
                }
            }
            b.append(literal);
            i = next;
        }
        return b.toString();
    }

    /**
     * Literals one of which starts every match of {@code re}: per top-level alternative its
     * leading literal, or — when it opens with a non-optional {@code (?:…)} group — the union of
     * the group's alternatives' sets. {@code null} when some alternative has none.
     */
    static List<String> leadingSet(String re) {
        List<String> alternatives = splitTopLevel(re);
        if (alternatives == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (String alt : alternatives) {
            int i = skipZeroWidth(alt);
            if (i < 0) {
                return null;
            }
            if (alt.startsWith("(?:", i)) {
                int end = groupEnd(alt, i);
                if (end < 0 || end + 1 < alt.length() && "?*{".indexOf(alt.charAt(end + 1)) >= 0) {
                    return null;
                }
                List<String> inner = leadingSet(alt.substring(i + 3, end));
                if (inner == null) {
                    return null;
                }
                out.addAll(inner);
                continue;
            }
            String lit = leadingLiteral(alt);
            if (lit == null || lit.length() < MIN_LITERAL || !lit.chars().allMatch(c -> c < 0x80)) {
                return null;
            }
            out.add(lit);
        }
        return out;
    }

    /** Index after the zero-width prefixes ({@code ^}, {@code \b}, lookbehinds) of {@code alt}, or -1. */
    private static int skipZeroWidth(String alt) {
        int i = 0;
        while (i < alt.length()) {
            if (alt.charAt(i) == '^') {
                i++;
            } else if (alt.startsWith("\\b", i)) {
                i += 2;
            } else if (alt.startsWith("(?<!", i) || alt.startsWith("(?<=", i)) {
                int end = groupEnd(alt, i);
                if (end < 0) {
                    return -1;
                }
                i = end + 1;
            } else {
                break;
            }
        }
        return i;
    }

    /**
     * The index just after the letter or digit escape at {@code i} ({@code \s}, {@code \x22},
     * {@code \x{…}}, a unicode or octal escape, {@code \cX}, {@code \p{…}}), so that its payload
     * is never read as literal text; -1 for escapes not modelled (back references, quoting,
     * named back references).
     */
    private static int escapeEnd(String alt, int i) {
        char n = alt.charAt(i + 1);
        switch (n) {
            case 'x':
                if (i + 2 < alt.length() && alt.charAt(i + 2) == '{') {
                    int close = alt.indexOf('}', i + 2);
                    return close < 0 ? -1 : close + 1;
                }
                return Math.min(i + 4, alt.length());
            case 'u':
                return Math.min(i + 6, alt.length());
            case 'c':
                return Math.min(i + 3, alt.length());
            case '0': {
                int k = i + 2;
                while (k < alt.length() && k < i + 5 && alt.charAt(k) >= '0' && alt.charAt(k) <= '7') {
                    k++;
                }
                return k;
            }
            case 'p', 'P', 'N': {
                if (i + 2 < alt.length() && alt.charAt(i + 2) == '{') {
                    int close = alt.indexOf('}', i + 2);
                    return close < 0 ? -1 : close + 1;
                }
                return Math.min(i + 3, alt.length());
            }
            case 'Q', 'k':
                return -1;
            default:
                return Character.isDigit(n) ? -1 : i + 2;
        }
    }

    /**
     * The longest run (at least 3 characters, ASCII) of literal characters that every match of
     * {@code alt} (one alternative, no top-level {@code |}) contains: consecutive literal atoms
     * of its top-level sequence that no quantifier makes optional. Groups, classes, escapes
     * such as {@code \\s} and anchors end a run. {@code null} when there is none.
     */
    static String requiredRun(String alt) {
        String best = null;
        StringBuilder run = new StringBuilder();
        int i = 0;
        while (i <= alt.length()) {
            boolean end = i == alt.length();
            char c = end ? 0 : alt.charAt(i);
            int next;
            Character literal = null;
            if (end) {
                next = i + 1;
            } else if (c == '\\') {
                if (i + 1 >= alt.length()) {
                    return null;
                }
                char n = alt.charAt(i + 1);
                if (!Character.isLetterOrDigit(n)) {
                    literal = n;
                    next = i + 2;
                } else {
                    next = escapeEnd(alt, i);
                    if (next < 0) {
                        return null;
                    }
                }
            } else if (c == '(') {
                int close = groupEnd(alt, i);
                if (close < 0) {
                    return null;
                }
                next = close + 1;
            } else if (c == '[') {
                int close = classEnd(alt, i);
                if (close < 0) {
                    return null;
                }
                next = close + 1;
            } else if (".^$".indexOf(c) >= 0) {
                next = i + 1;
            } else if ("?*+{})]|".indexOf(c) >= 0) {
                return null; // a quantifier without an atom, or a stray bracket: not a shape we read
            } else {
                literal = c;
                next = i + 1;
            }
            // the quantifier of this atom, if any
            boolean optional = false;
            boolean repeated = false;
            if (!end && next < alt.length()) {
                char q = alt.charAt(next);
                if (q == '?' || q == '*' || q == '{') {
                    optional = true;
                } else if (q == '+') {
                    repeated = true;
                }
                if (optional || repeated) {
                    int close = q == '{' ? alt.indexOf('}', next) : next;
                    if (close < 0) {
                        return null;
                    }
                    next = close + 1;
                    if (next < alt.length() && (alt.charAt(next) == '?' || alt.charAt(next) == '+')) {
                        next++; // lazy or possessive
                    }
                }
            }
            if (literal != null && !optional && literal < 0x80) {
                run.append(literal.charValue());
            }
            if (literal == null || optional || repeated || literal >= 0x80) {
                if (run.length() >= 3 && (best == null || run.length() > best.length())) {
                    best = run.toString();
                }
                run.setLength(0);
            }
            i = next;
        }
        return best;
    }

    /** Index of the ']' closing the class opened at {@code open}, or -1 (also for nested classes). */
    private static int classEnd(String s, int open) {
        int i = open + 1;
        if (i < s.length() && s.charAt(i) == '^') {
            i++;
        }
        if (i < s.length() && s.charAt(i) == ']') {
            i++;
        }
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                return -1;
            } else if (c == ']') {
                return i;
            }
        }
        return -1;
    }

    /** Index of the ')' closing the group opened at {@code open}, or -1. */
    private static int groupEnd(String s, int open) {
        int depth = 0;
        boolean inClass = false;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
                continue;
            }
            if (inClass) {
                if (c == ']') {
                    inClass = false;
                }
                continue;
            }
            if (c == '[') {
                inClass = true;
                if (i + 1 < s.length() && s.charAt(i + 1) == '^') {
                    i++;
                }
                if (i + 1 < s.length() && s.charAt(i + 1) == ']') {
                    i++;
                }
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
                if (depth == 0) {
                    return i;
                }
            }
        }
        return -1;
    }
}
