package io.recourse.classification;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the source text of a catalogue regex (the bounded dialect of {@link RegexSafety}) for
 * {@link RegexPrefilter}: its top-level alternatives, a windowed alternative
 * {@code ^[\s\S]{0,N}(?:A|B|…)} read as its pieces, and per alternative the literal or set of
 * literals it must start with and a run of characters every match contains. Each answer is
 * conservative: {@code null} when the source cannot be read safely, never a wrong literal
 * (proven against {@link Pattern} by {@code RegexPrefilterProperties} and
 * {@code WindowedAlternativeProperties}).
 */
final class RegexSource {

    private RegexSource() {
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
    static boolean hasBackReference(String re) {
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
    static boolean hasInlineFlags(String re) {
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
            if (lit == null || lit.length() < RegexPrefilter.MIN_LITERAL || !lit.chars().allMatch(c -> c < 0x80)) {
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
