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
                || re.contains("\\Q") || RegexSource.hasInlineFlags(re) || RegexSource.hasBackReference(re)) {
            return whole;
        }
        List<String> alternatives = RegexSource.splitTopLevel(re);
        if (alternatives == null) {
            return whole;
        }
        List<Part> parts = new ArrayList<>();
        for (String top : alternatives) {
            RegexSource.Windowed w = (flags & Pattern.MULTILINE) == 0 ? RegexSource.windowed(top) : null;
            List<String> pieces = w == null ? List.of(top) : w.alternatives();
            for (String alt : pieces) {
                Pattern compiled;
                try {
                    compiled = alternatives.size() == 1 && w == null ? pattern : Pattern.compile(alt, flags);
                } catch (java.util.regex.PatternSyntaxException e) {
                    return whole;
                }
                List<String> lits = RegexSource.leadingSet(alt);
                String[] folded = null;
                if (lits != null) {
                    folded = lits.stream().map(l -> ci ? l.toLowerCase(Locale.ROOT) : l).toArray(String[]::new);
                }
                String required = RegexSource.requiredRun(alt);
                if (required != null && ci) {
                    required = required.toLowerCase(Locale.ROOT);
                }
                parts.add(new Part(compiled, folded, required, w == null ? -1 : w.window()));
            }
        }
        return new RegexPrefilter(parts.toArray(Part[]::new), ci);
    }
}
