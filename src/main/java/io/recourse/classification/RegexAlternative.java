package io.recourse.classification;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One top-level alternative of a catalogue regex, as {@link RuleIndex} compiles it: the literal
 * clauses that admit it ({@link RequiredLiterals}, its leading literals), and the cheapest
 * equivalent of {@code pattern.matcher(text).find()} given where those literals occur.
 */
final class RegexAlternative {
    private static final int NONE = Integer.MAX_VALUE;

    /** Index in the index's alternatives (and its turn's matchers). */
    final int id;
    final int gate;
    final Pattern pattern;
    /** Every match contains a literal of each clause (literal ids). */
    final int[][] clauses;
    /** The clause whose literals trigger the check; {@code null}: no clause, always admitted. */
    final int[] trigger;
    /** Begins with {@code ^} (no {@code MULTILINE}): a match can only start at 0. */
    final boolean anchored;
    /** Literals one of which starts every match (lower case when not case-sensitive); {@code null}: none known. */
    final String[] starts;
    /** Per literal of {@link #starts}, its id in the literal set, or -1 when it is not in it. */
    final int[] startIds;
    /** {@link #find} reads where literals of the set start (some {@link #startIds} is one): the field must be scanned. */
    final boolean readsFound;
    final boolean caseSensitive;
    /**
     * A length test {@code ^[\s\S]{N}[\s\S]{M}…} (any character, at least N + M + … of them from
     * the start): that minimum in code points, as {@code [\s\S]} counts them; else -1.
     */
    final int minCodePoints;
    /** Without leading literals: the characters one of which begins every match, or {@code null} when unknown. */
    final LeadingChars leading;
    /**
     * Neither anchored nor with leading literals or characters, but ending in {@code $} (no
     * {@code MULTILINE}) with matches at most {@link #maxChars} long: a match starts in the last
     * {@code tail} characters of the text (its longest match and a final line terminator); else -1.
     */
    final int tail;
    /**
     * Cheap to run without knowing the text's literals: anchored ({@code lookingAt()} at 0), a
     * length test, or a tail; on a field not scanned yet it is run instead of scanning the field.
     */
    final boolean scanFree;
    /**
     * A piece of a windowed alternative ({@link RegexSource#windowed}): a match must start at a
     * code-point boundary with at most this many code points before it; -1: anywhere.
     */
    final int window;
    /**
     * The alternative is this literal and nothing else (no metacharacter, no surrogate; lower case
     * when not case-sensitive): it matches exactly where the literal occurs, so {@link #find} looks
     * the literal up instead of running a matcher; else {@code null}.
     */
    final String pureLiteral;
    /** {@link #pureLiteral} compares exactly ({@code String.indexOf}): case-sensitive, or no ASCII letter in it. */
    private final boolean pureExact;
    /**
     * Non-ASCII characters every match contains, a member of each set ({@link RequiredChars}): a
     * text without them has no match, whatever else is known; {@code null}: none known.
     */
    final char[][] requiredChars;

    RegexAlternative(int id, int gate, Pattern pattern, List<int[]> clauses, String[] starts, int[] startIds, boolean caseSensitive,
                List<String> literals, int window) {
        this.id = id;
        this.window = window;
        this.gate = gate;
        this.pattern = pattern;
        this.clauses = clauses.toArray(int[][]::new);
        this.trigger = trigger(this.clauses, literals);
        String re = pattern.pattern();
        List<String> split = RegexSource.splitTopLevel(re);
        this.anchored = re.startsWith("^") && split != null && split.size() == 1
                && (pattern.flags() & (Pattern.MULTILINE | Pattern.LITERAL | Pattern.COMMENTS)) == 0;
        boolean usable = starts != null && !re.contains("\\G");
        this.starts = usable ? starts : null;
        this.startIds = usable ? startIds : null;
        boolean reads = false;
        for (int k = 0; this.startIds != null && k < this.startIds.length; k++) {
            reads |= this.startIds[k] >= 0;
        }
        this.readsFound = reads;
        this.caseSensitive = caseSensitive;
        this.minCodePoints = anchored ? minCodePoints(re) : -1;
        this.leading = !anchored && this.starts == null && !re.contains("\\G") ? LeadingChars.of(re, pattern.flags()) : null;
        int longest = window < 0 && !anchored && this.starts == null && leading == null && minCodePoints < 0 && endsWithDollar(re)
                && split != null && split.size() == 1 && (pattern.flags() & (Pattern.MULTILINE | Pattern.LITERAL | Pattern.COMMENTS)) == 0
                ? maxChars(re) : -1;
        this.tail = longest >= 0 ? longest + 2 : -1; // "$" matches at the end or before a final line terminator (at most "\r\n")
        this.scanFree = anchored || minCodePoints >= 0 || tail >= 0;
        boolean plain = !re.isEmpty() && (pattern.flags() & (Pattern.LITERAL | Pattern.COMMENTS | Pattern.UNICODE_CASE
                | Pattern.CANON_EQ)) == 0;
        boolean letters = false;
        for (int k = 0; plain && k < re.length(); k++) {
            char c = re.charAt(k);
            plain = "\\[](){}.*+?^$|#".indexOf(c) < 0 && !Character.isSurrogate(c) && c != '\n' && c != '\r';
            letters |= c < 0x80 && Character.isLetter(c);
        }
        boolean ci = (pattern.flags() & Pattern.CASE_INSENSITIVE) != 0;
        this.pureLiteral = plain ? (ci ? LiteralSet.foldAll(re) : re) : null;
        this.pureExact = plain && (!ci || !letters);
        this.requiredChars = RequiredChars.of(re, pattern.flags());
    }

    /**
     * Whether a match of this piece may start at {@code p}: anywhere when it is not windowed, else at a
     * code-point boundary with at most {@link #window} code points before it.
     */
    private boolean startsInWindow(String text, int p) {
        return window < 0 || RegexPrefilter.inWindow(text, p, window) && RegexPrefilter.boundary(text, p);
    }

    /** Whether {@code re} ends with an unescaped {@code $}. */
    static boolean endsWithDollar(String re) {
        if (!re.endsWith("$")) {
            return false;
        }
        int backslashes = 0;
        for (int k = re.length() - 2; k >= 0 && re.charAt(k) == '\\'; k--) {
            backslashes++;
        }
        return backslashes % 2 == 0;
    }

    /**
     * The most UTF-16 characters a match of {@code re} (no {@code COMMENTS}, no {@code LITERAL})
     * can span, counting every atom that consumes a character as two (a supplementary code
     * point), or -1 when unbounded ({@code *}, {@code +}, {@code {n,}}) or not read here
     * (back references, {@code \Q}, {@code \X}, anything unexpected).
     */
    static int maxChars(String re) {
        try {
            int[] at = {0};
            int n = MaxChars.alternation(re, at, re.length());
            return at[0] == re.length() ? n : -1;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** {@link #maxChars}' reader: every method answers -1 where it gives up; {@code at[0]} is the position. */
    private static final class MaxChars {
        private static final int LIMIT = 1 << 20;

        static int alternation(String re, int[] at, int end) {
            int best = 0;
            while (true) {
                int n = sequence(re, at, end);
                if (n < 0) {
                    return -1;
                }
                best = Math.max(best, n);
                if (at[0] < end && re.charAt(at[0]) == '|') {
                    at[0]++;
                    continue;
                }
                return best;
            }
        }

        private static int sequence(String re, int[] at, int end) {
            int total = 0;
            while (at[0] < end && re.charAt(at[0]) != '|' && re.charAt(at[0]) != ')') {
                int n = atom(re, at, end);
                if (n < 0) {
                    return -1;
                }
                n = quantified(re, at, end, n);
                if (n < 0 || (total += n) > LIMIT) {
                    return -1;
                }
            }
            return total;
        }

        private static int atom(String re, int[] at, int end) {
            int i = at[0];
            char c = re.charAt(i);
            switch (c) {
                case '(': {
                    boolean zeroWidth = re.startsWith("(?=", i) || re.startsWith("(?!", i) || re.startsWith("(?<=", i)
                            || re.startsWith("(?<!", i);
                    int from;
                    if (re.startsWith("(?<", i) && !zeroWidth) {
                        from = re.indexOf('>', i) + 1; // a named group
                    } else if (re.startsWith("(?", i)) {
                        int k = i + 2;
                        if (zeroWidth) {
                            k = re.charAt(i + 2) == '<' ? i + 4 : i + 3;
                        } else {
                            while (k < end && (Character.isLetter(re.charAt(k)) || re.charAt(k) == '-')) {
                                k++;
                            }
                            if (k < end && re.charAt(k) == ')') { // an inline flag: matches nothing
                                at[0] = k + 1;
                                return 0;
                            }
                            if (k >= end || re.charAt(k) != ':') {
                                return -1;
                            }
                            k++;
                        }
                        from = k;
                    } else {
                        from = i + 1;
                    }
                    if (from <= 0) {
                        return -1;
                    }
                    at[0] = from;
                    int n = alternation(re, at, end);
                    if (n < 0 || at[0] >= end || re.charAt(at[0]) != ')') {
                        return -1;
                    }
                    at[0]++;
                    return zeroWidth ? 0 : n;
                }
                case '[': {
                    int depth = 0;
                    for (int k = i; k < end; k++) {
                        char d = re.charAt(k);
                        if (d == '\\') {
                            k++;
                        } else if (d == '[') {
                            depth++;
                        } else if (d == ']' && k > i + 1 && !(k == i + 2 && re.charAt(i + 1) == '^') && --depth == 0) {
                            at[0] = k + 1;
                            return 2;
                        }
                    }
                    return -1;
                }
                case '\\': {
                    if (i + 1 >= end) {
                        return -1;
                    }
                    char e = re.charAt(i + 1);
                    at[0] = i + 2;
                    if ("QXk".indexOf(e) >= 0 || e >= '1' && e <= '9') {
                        return -1;
                    }
                    if ("bBAzZG".indexOf(e) >= 0) {
                        return 0;
                    }
                    if ((e == 'p' || e == 'P' || e == 'x' || e == 'N') && i + 2 < end && re.charAt(i + 2) == '{') {
                        int close = re.indexOf('}', i + 2);
                        if (close < 0) {
                            return -1;
                        }
                        at[0] = close + 1;
                    } else if (e == 'p' || e == 'P' || e == 'c') {
                        at[0] = i + 3;
                    } else if (e == 'x') {
                        at[0] = i + 4;
                    } else if (e == 'u') {
                        at[0] = i + 6;
                    } else if (e == '0') {
                        int k = i + 2;
                        while (k < end && k < i + 5 && re.charAt(k) >= '0' && re.charAt(k) <= '7') {
                            k++;
                        }
                        at[0] = k;
                    }
                    return 2;
                }
                case '^':
                case '$':
                    at[0] = i + 1;
                    return 0;
                case '*':
                case '+':
                case '?':
                case '{':
                    return -1;
                default:
                    at[0] = i + (Character.isHighSurrogate(c) && i + 1 < end ? 2 : 1);
                    return 2;
            }
        }

        private static int quantified(String re, int[] at, int end, int n) {
            int i = at[0];
            if (i >= end) {
                return n;
            }
            char q = re.charAt(i);
            int times;
            if (q == '?') {
                times = 1;
                i++;
            } else if (q == '*' || q == '+') {
                return -1;
            } else if (q == '{') {
                int close = re.indexOf('}', i);
                if (close < 0) {
                    return -1;
                }
                String body = re.substring(i + 1, close);
                int comma = body.indexOf(',');
                if (comma == body.length() - 1) {
                    return -1; // {n,}
                }
                times = Integer.parseInt(comma < 0 ? body : body.substring(comma + 1));
                i = close + 1;
            } else {
                return n;
            }
            if (i < end && (re.charAt(i) == '?' || re.charAt(i) == '+')) {
                i++; // lazy or possessive: the same longest match
            }
            at[0] = i;
            long out = (long) n * times;
            return out > LIMIT ? -1 : (int) out;
        }
    }

    private static final java.util.regex.Pattern ANY_CHARS = java.util.regex.Pattern.compile(
            "\\[(?:\\\\s\\\\S|\\\\S\\\\s)\\]\\{([0-9]{1,4})(?:,[0-9]{0,4})?\\}");

    /**
     * N for a regex {@code ^} followed only by {@code [\s\S]{a}} or {@code [\s\S]{a,b}} (or
     * {@code [\S\s]}) parts, N the sum of their minimums: it matches exactly when the text has at
     * least N code points. Else -1.
     */
    static int minCodePoints(String re) {
        if (!re.startsWith("^") || re.length() == 1) {
            return -1;
        }
        java.util.regex.Matcher m = ANY_CHARS.matcher(re);
        int at = 1;
        int sum = 0;
        while (at < re.length()) {
            if (!m.region(at, re.length()).lookingAt()) {
                return -1;
            }
            sum += Integer.parseInt(m.group(1));
            at = m.end();
        }
        return sum;
    }

    /**
     * The clause whose literals start the check: the one with the longest shortest literal
     * (long literals are rare in provider text), then the fewest literals.
     */
    private static int[] trigger(int[][] clauses, List<String> literals) {
        int[] best = null;
        int bestShortest = 0;
        for (int[] c : clauses) {
            int shortest = Integer.MAX_VALUE;
            for (int l : c) {
                shortest = Math.min(shortest, literals.get(l).length());
            }
            if (best == null || shortest > bestShortest || shortest == bestShortest && c.length < best.length) {
                best = c;
                bestShortest = shortest;
            }
        }
        return best;
    }


    /**
     * Exactly {@code pattern.matcher(text).find()}, given the literals {@code found} in
     * {@code text} ({@link LiteralSet#scan}). With leading literals, a match can only start
     * where one of them occurs: it is tried there, in order, and nowhere else (a region from
     * that position with transparent, non-anchoring bounds reads exactly as the whole text).
     * Without them but with {@link #leading} characters, likewise from each position holding one.
     * A text without the {@link #requiredChars} is {@code false} before any of that.
     */
    boolean find(String text, int[] found, Matcher[] matchers) {
        if (requiredChars != null && !RequiredChars.present(text, requiredChars)) {
            return false; // no match can be without them (English text: one indexOf per member, immediate on Latin-1)
        }
        if (minCodePoints >= 0) {
            return text.length() >= minCodePoints && text.codePointCount(0, text.length()) >= minCodePoints;
        }
        if (anchored) {
            return matcher(text, matchers).lookingAt(); // '^' matches only at 0 (inside a window too)
        }
        if (pureLiteral != null) { // its first occurrence, if any, is the leftmost match
            int p;
            if (starts != null && starts.length == 1 && startIds[0] >= 0 && starts[0].equals(pureLiteral)) {
                p = firstStart(found, startIds[0]);
            } else if (pureExact) {
                p = text.indexOf(pureLiteral);
                p = p < 0 ? NONE : p;
            } else {
                p = indexOf(text, pureLiteral, 0);
            }
            return p != NONE && startsInWindow(text, p); // a pure literal holds no surrogate: p is a boundary
        }
        int n = text.length();
        // a windowed piece starts within its window: no candidate position past this index
        int last = window < 0 ? n : (int) Math.min(n, 2L * window);
        if (starts == null && leading != null) { // tried only where a leading character is
            Matcher m = null;
            for (int p = leading.next(text, 0); p >= 0 && p <= last; p = leading.next(text, p + 1)) {
                if (!startsInWindow(text, p)) {
                    continue;
                }
                if (m == null) {
                    m = matcher(text, matchers);
                }
                if (m.region(p, n).lookingAt()) {
                    return true;
                }
            }
            return false;
        }
        if (window >= 0 && starts == null) {
            return RegexPrefilter.windowFind(pattern, text, window);
        }
        if (starts == null && tail >= 0) { // a match starts within the tail: find from there, the text before seen by lookbehinds
            return matcher(text, matchers).region(Math.max(0, n - tail), n).find();
        }
        if (starts == null) {
            return matcher(text, matchers).find();
        }
        int[] next = new int[starts.length];
        for (int k = 0; k < starts.length; k++) {
            next[k] = startIds[k] >= 0 ? firstStart(found, startIds[k]) : indexOf(text, starts[k], 0);
        }
        Matcher m = null;
        while (true) {
            int p = NONE;
            for (int q : next) {
                p = Math.min(p, q);
            }
            if (p == NONE || p > last) {
                return false;
            }
            if (startsInWindow(text, p)) {
                if (m == null) {
                    m = matcher(text, matchers);
                }
                if (m.region(p, n).lookingAt()) {
                    return true;
                }
            }
            for (int k = 0; k < next.length; k++) {
                if (next[k] == p) {
                    next[k] = indexOf(text, starts[k], p + 1);
                }
            }
        }
    }

    /**
     * This alternative's matcher of the turn reset to {@code text}: as {@code pattern.matcher(text)},
     * with transparent, non-anchoring bounds when it is tried from its leading literals or characters.
     */
    private Matcher matcher(String text, Matcher[] matchers) {
        Matcher m = matchers[id];
        if (m == null) {
            m = pattern.matcher(text);
            if (!anchored && (starts != null || leading != null || tail >= 0 || window >= 0)) { // tried from positions: lookbehinds see the text before
                m.useTransparentBounds(true).useAnchoringBounds(false);
            }
            matchers[id] = m;
            return m;
        }
        return m.reset(text);
    }

    private static int firstStart(int[] found, int id) {
        for (int k = 0; k < found.length; k += 2) {
            if (found[k] == id) {
                return found[k + 1];
            }
        }
        return NONE;
    }

    /** Index of {@code literal} in {@code text} from {@code from} (ASCII case folded unless case-sensitive), or {@link #NONE}. */
    private int indexOf(String text, String literal, int from) {
        if (caseSensitive) {
            int i = text.indexOf(literal, from);
            return i < 0 ? NONE : i;
        }
        char lower = literal.charAt(0);
        char upper = lower >= 'a' && lower <= 'z' ? (char) (lower - ('a' - 'A')) : lower;
        int last = text.length() - literal.length();
        int i = from;
        while (i <= last) {
            int a = text.indexOf(lower, i);
            if (upper != lower) {
                int b = text.indexOf(upper, i);
                a = a < 0 ? b : b < 0 ? a : Math.min(a, b);
            }
            if (a < 0 || a > last) {
                return NONE;
            }
            int k = 1;
            while (k < literal.length() && LiteralSet.fold(text.charAt(a + k)) == literal.charAt(k)) {
                k++;
            }
            if (k == literal.length()) {
                return a;
            }
            i = a + 1;
        }
        return NONE;
    }
}
