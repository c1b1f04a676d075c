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
    final boolean caseSensitive;
    /**
     * A length test {@code ^[\s\S]{N}[\s\S]{M}…} (any character, at least N + M + … of them from
     * the start): that minimum in code points, as {@code [\s\S]} counts them; else -1.
     */
    final int minCodePoints;
    /** Without leading literals: the characters one of which begins every match, or {@code null} when unknown. */
    final LeadingChars leading;

    RegexAlternative(int id, int gate, Pattern pattern, List<int[]> clauses, String[] starts, int[] startIds, boolean caseSensitive,
                List<String> literals) {
        this.id = id;
        this.gate = gate;
        this.pattern = pattern;
        this.clauses = clauses.toArray(int[][]::new);
        this.trigger = trigger(this.clauses, literals);
        String re = pattern.pattern();
        List<String> split = RegexPrefilter.splitTopLevel(re);
        this.anchored = re.startsWith("^") && split != null && split.size() == 1
                && (pattern.flags() & (Pattern.MULTILINE | Pattern.LITERAL | Pattern.COMMENTS)) == 0;
        boolean usable = starts != null && !re.contains("\\G");
        this.starts = usable ? starts : null;
        this.startIds = usable ? startIds : null;
        this.caseSensitive = caseSensitive;
        this.minCodePoints = anchored ? minCodePoints(re) : -1;
        this.leading = !anchored && this.starts == null && !re.contains("\\G") ? LeadingChars.of(re, pattern.flags()) : null;
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

    boolean admitted(long[] present) {
        for (int[] clause : clauses) {
            boolean any = false;
            for (int l : clause) {
                if (RuleIndex.isSet(present, l)) {
                    any = true;
                    break;
                }
            }
            if (!any) {
                return false;
            }
        }
        return true;
    }

    /**
     * Exactly {@code pattern.matcher(text).find()}, given the literals {@code found} in
     * {@code text} ({@link LiteralSet#scan}). With leading literals, a match can only start
     * where one of them occurs: it is tried there, in order, and nowhere else (a region from
     * that position with transparent, non-anchoring bounds reads exactly as the whole text).
     * Without them but with {@link #leading} characters, likewise from each position holding one.
     */
    boolean find(String text, int[] found, Matcher[] matchers) {
        if (minCodePoints >= 0) {
            return text.length() >= minCodePoints && text.codePointCount(0, text.length()) >= minCodePoints;
        }
        if (anchored) {
            return matcher(text, matchers).lookingAt(); // '^' matches only at 0
        }
        int n = text.length();
        if (starts == null && leading != null) { // tried only where a leading character is
            Matcher m = null;
            for (int p = leading.next(text, 0); p >= 0; p = leading.next(text, p + 1)) {
                if (m == null) {
                    m = matcher(text, matchers);
                }
                if (m.region(p, n).lookingAt()) {
                    return true;
                }
            }
            return false;
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
            if (p == NONE) {
                return false;
            }
            if (m == null) {
                m = matcher(text, matchers);
            }
            if (m.region(p, n).lookingAt()) {
                return true;
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
            if (!anchored && (starts != null || leading != null)) { // tried from positions: lookbehinds see the text before
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
