package io.recourse.classification;

import java.util.regex.Pattern;

/**
 * The characters one of which begins every match of a regex, read from its first consuming atom
 * when that is simple: a literal character, an escape ({@code \n}, {@code \s}, {@code \d},
 * {@code \w}, an escaped symbol) or a character class of such members and ranges, not optional,
 * after any lookarounds or word boundaries ({@code \b}, {@code \B}) at the start (zero-width: they only
 * narrow where a match starts), or a
 * non-optional {@code (?:…)} or {@code (?i:…)} group whose alternatives each begin so (the union
 * of their sets; inside {@code (?i:…)} ASCII letters in both cases). A match
 * of such a regex cannot be empty, so it can only start at a position holding one of these
 * characters: {@link RegexAlternative#find} tries the regex there and nowhere else.
 *
 * <p>{@link #of} answers {@code null} for anything else (another group, {@code .}, an anchor, a negated
 * or nested class, {@code \p{…}}, an optional first atom, supplementary characters, flags other
 * than {@code CASE_INSENSITIVE} and {@code DOTALL}): then every position is a candidate.
 * {@code CASE_INSENSITIVE} without {@code UNICODE_CASE} folds ASCII letters only, as
 * {@link java.util.regex.Pattern} does.
 */
final class LeadingChars {

    private static final int UNSUPPORTED_FLAGS = Pattern.COMMENTS | Pattern.LITERAL | Pattern.UNICODE_CASE
            | Pattern.UNICODE_CHARACTER_CLASS | Pattern.CANON_EQ | Pattern.MULTILINE | Pattern.UNIX_LINES;
    /** {@code \s} without {@code UNICODE_CHARACTER_CLASS}. */
    private static final String SPACE = " \t\n\u000B\f\r";
    /** Non-ASCII members beyond this many make the set not worth it. */
    private static final int MAX_OTHERS = 32;

    private final boolean[] ascii;
    /** Non-ASCII members (BMP, no surrogates). */
    private final String others;

    private LeadingChars(boolean[] ascii, String others) {
        this.ascii = ascii;
        this.others = others;
    }

    /** Whether {@code c} can begin a match. */
    boolean contains(char c) {
        return c < 128 ? ascii[c] : !others.isEmpty() && others.indexOf(c) >= 0;
    }

    /** The first index {@code >= from} of {@code text} holding a member, or -1. */
    int next(String text, int from) {
        for (int i = from, n = text.length(); i < n; i++) {
            if (contains(text.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The leading characters of {@code regex} compiled with {@code flags}, or {@code null} when
     * they are not simple to tell (then nothing may be skipped).
     */
    static LeadingChars of(String regex, int flags) {
        if ((flags & UNSUPPORTED_FLAGS) != 0) {
            return null;
        }
        if (!simpleTopLevel(regex)) {
            return null;
        }
        try {
            return new Parser(regex, (flags & Pattern.CASE_INSENSITIVE) != 0).parse();
        } catch (RuntimeException e) {
            return null; // anything unexpected: no set, every position tried
        }
    }

    /**
     * No top-level alternation (one alternative: its first atom begins every match), no quoting
     * ({@code \Q}) and no nested class, so that groups and classes are read as {@link Pattern} reads them.
     */
    private static boolean simpleTopLevel(String re) {
        int depth = 0;
        boolean inClass = false;
        for (int k = 0; k < re.length(); k++) {
            char c = re.charAt(k);
            if (c == '\\') {
                if (k + 1 < re.length() && (re.charAt(k + 1) == 'Q' || re.charAt(k + 1) == 'E')) {
                    return false;
                }
                k++;
            } else if (inClass) {
                if (c == '[') {
                    return false;
                }
                if (c == ']') {
                    inClass = false;
                }
            } else if (c == '[') {
                inClass = true;
                if (k + 1 < re.length() && re.charAt(k + 1) == ']' || k + 2 < re.length() && re.charAt(k + 1) == '^' && re.charAt(k + 2) == ']') {
                    return false; // a leading ']' is a member: not read here
                }
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == '|' && depth == 0) {
                return false;
            }
        }
        return depth == 0 && !inClass;
    }

    /** Reads the regex's first atom; every method answers {@code false} (or -1) where it gives up. */
    private static final class Parser {
        private final String re;
        private final boolean fold;
        private final boolean[] ascii = new boolean[128];
        private final StringBuilder others = new StringBuilder();
        private int i;
        /** Inside a {@code (?i:…)} group (or the whole regex case-insensitive): ASCII letters added in both cases. */
        private boolean foldNow;

        Parser(String re, boolean fold) {
            this.re = re;
            this.fold = fold;
            this.foldNow = fold;
        }

        LeadingChars parse() {
            if (!alternative(re.length())) {
                return null;
            }
            if (fold) {
                for (char c = 'a'; c <= 'z'; c++) {
                    char u = (char) (c - ('a' - 'A'));
                    ascii[c] |= ascii[u];
                    ascii[u] = ascii[c];
                }
            }
            return others.length() > MAX_OTHERS ? null : new LeadingChars(ascii, others.toString());
        }

        /**
         * The first atom of the alternative at {@code i} (ending before {@code end}): after zero-width
         * lookarounds, a simple atom, or a non-optional group {@code (?:…)} or {@code (?i:…)} whose
         * alternatives each begin with such an atom (their union). Advances past it.
         */
        private boolean alternative(int end) {
            while (re.startsWith("(?<!", i) || re.startsWith("(?<=", i) || re.startsWith("(?=", i) || re.startsWith("(?!", i)
                    || wordBoundary(i)) {
                if (wordBoundary(i)) {
                    i += 2; // \b or \B: zero-width too
                    continue;
                }
                int close = closingParen(i);
                if (close < 0 || close >= end) {
                    return false;
                }
                i = close + 1; // zero-width: a match still starts at the next atom
            }
            if (i >= end) {
                return false;
            }
            boolean caseless = re.startsWith("(?i:", i);
            if (caseless || re.startsWith("(?:", i)) {
                int close = closingParen(i);
                if (close < 0 || close >= end) {
                    return false;
                }
                boolean outer = foldNow;
                foldNow |= caseless;
                int from = i + (caseless ? 4 : 3);
                for (int bar : topLevelBars(from, close)) {
                    i = from;
                    if (!alternative(bar)) {
                        return false;
                    }
                    from = bar + 1;
                }
                foldNow = outer;
                i = close + 1;
                return required();
            }
            return atom() && required();
        }

        /** {@code \b} or {@code \B} at {@code k}, not followed by a quantifier or {@code {g}}. */
        private boolean wordBoundary(int k) {
            return k + 1 < re.length() && re.charAt(k) == '\\' && (re.charAt(k + 1) == 'b' || re.charAt(k + 1) == 'B')
                    && (k + 2 >= re.length() || "{?*+".indexOf(re.charAt(k + 2)) < 0);
        }

        /** Positions of the {@code |} at depth 0 between {@code from} and {@code close}, and {@code close} last. */
        private java.util.List<Integer> topLevelBars(int from, int close) {
            java.util.List<Integer> out = new java.util.ArrayList<>();
            int depth = 0;
            boolean inClass = false;
            for (int k = from; k < close; k++) {
                char c = re.charAt(k);
                if (c == '\\') {
                    k++;
                } else if (inClass) {
                    if (c == ']') {
                        inClass = false;
                    }
                } else if (c == '[') {
                    inClass = true;
                } else if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    depth--;
                } else if (c == '|' && depth == 0) {
                    out.add(k);
                }
            }
            out.add(close);
            return out;
        }

        /** The atom at {@code i}; advances past it. */
        private boolean atom() {
            char c = re.charAt(i);
            if (c == '\\') {
                i++;
                return escape(false);
            }
            if (c == '[') {
                i++;
                return charClass();
            }
            if ("()|.^$*+?{}]".indexOf(c) >= 0 || Character.isSurrogate(c)) {
                return false;
            }
            i++;
            return add(c);
        }

        /** After the atom: not optional ({@code ?}, {@code *}, {@code {0,…}}). */
        private boolean required() {
            if (i >= re.length()) {
                return true;
            }
            char q = re.charAt(i);
            if (q == '?' || q == '*') {
                return false;
            }
            if (q == '{') {
                int k = i + 1;
                int min = 0;
                boolean digits = false;
                while (k < re.length() && Character.isDigit(re.charAt(k))) {
                    min = min * 10 + (re.charAt(k) - '0');
                    digits = true;
                    k++;
                    if (min > 100_000) {
                        return false;
                    }
                }
                return digits && min >= 1;
            }
            return true;
        }

        /** The escape after a backslash at {@code i}; in a class or not. */
        private boolean escape(boolean inClass) {
            if (i >= re.length()) {
                return false;
            }
            char e = re.charAt(i++);
            switch (e) {
                case 'n': return add('\n');
                case 't': return add('\t');
                case 'r': return add('\r');
                case 'f': return add('\f');
                case 'a': return add('\u0007');
                case 'e': return add('\u001B');
                case 's':
                    for (char s : SPACE.toCharArray()) {
                        add(s);
                    }
                    return true;
                case 'd': return range('0', '9');
                case 'w': return range('a', 'z') && range('A', 'Z') && range('0', '9') && add('_');
                default:
                    if (e < 128 && !Character.isLetterOrDigit(e)) {
                        return add(e); // an escaped symbol is itself
                    }
                    return false;
            }
        }

        /** A class after its {@code [}: single characters, ranges, simple escapes; not negated, nested or intersected. */
        private boolean charClass() {
            if (i >= re.length() || re.charAt(i) == '^' || re.charAt(i) == ']') {
                return false;
            }
            while (i < re.length()) {
                char c = re.charAt(i);
                if (c == ']') {
                    i++;
                    return true;
                }
                if (c == '[' || c == '&' || Character.isSurrogate(c)) {
                    return false;
                }
                if (c == '\\') {
                    i++;
                    if (i < re.length() && "sdwntrfae".indexOf(re.charAt(i)) < 0 && i + 1 < re.length() && re.charAt(i + 1) == '-') {
                        return false; // a range from an escaped symbol: not worth reading
                    }
                    if (!escape(true)) {
                        return false;
                    }
                    continue;
                }
                if (i + 2 < re.length() && re.charAt(i + 1) == '-' && re.charAt(i + 2) != ']') {
                    char to = re.charAt(i + 2);
                    if (to == '\\' || to == '[' || Character.isSurrogate(to) || !range(c, to)) {
                        return false;
                    }
                    i += 3;
                    continue;
                }
                add(c);
                i++;
            }
            return false;
        }

        private boolean range(char from, char to) {
            if (to < from || to - from > 256) {
                return false;
            }
            for (char c = from; c <= to; c++) {
                add(c);
                if (c == Character.MAX_VALUE) {
                    break;
                }
            }
            return true;
        }

        private boolean add(char c) {
            if (foldNow && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')) {
                ascii[c | 0x20] = true;
                ascii[c & ~0x20] = true;
            }
            if (c < 128) {
                ascii[c] = true;
            } else if (others.indexOf(String.valueOf(c)) < 0) {
                others.append(c);
            }
            return true;
        }

        /** The index of the parenthesis closing the group opened at {@code open}, or -1. */
        private int closingParen(int open) {
            int depth = 0;
            boolean inClass = false;
            for (int k = open; k < re.length(); k++) {
                char c = re.charAt(k);
                if (c == '\\') {
                    k++;
                } else if (inClass) {
                    if (c == ']') {
                        inClass = false;
                    }
                } else if (c == '[') {
                    inClass = true;
                } else if (c == '(') {
                    depth++;
                } else if (c == ')' && --depth == 0) {
                    return k;
                }
            }
            return -1;
        }
    }
}
