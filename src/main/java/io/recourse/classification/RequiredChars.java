package io.recourse.classification;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Non-ASCII characters every match of a regex contains, read from the atoms of its top-level
 * sequence: a literal character, or a character class of such members only, that is not
 * optional (no {@code ?}, {@code *}, {@code {0,…}}) and is neither ASCII nor a surrogate. The
 * CJK rate and quota literals ({@code 请更新到…}, {@code (?:使用上限|…)[\s\S]{0,120}重置}) and the
 * prose detector's dash alternatives ({@code \s[—–]\s{1,3}…}) have such atoms; English provider
 * text holds none of them, so {@link RegexAlternative#find} answers {@code false} after one
 * {@code String.indexOf} per member (immediate on a Latin-1 string) instead of trying the regex
 * at every leading character.
 *
 * <p>A match is a substring of the text, so a text without a member of each set has no match.
 * Without {@code UNICODE_CASE} a {@code CASE_INSENSITIVE} regex compares non-ASCII characters as
 * themselves ({@link Pattern}), so the sets are exact under either. Groups, lookarounds, escapes
 * and other classes are passed over, not read. {@link #of} answers {@code null} when there is no
 * such atom or the regex is outside what is read here: a top-level {@code |}, quoting
 * ({@code \Q}), a nested class, flags {@code COMMENTS}, {@code LITERAL}, {@code UNICODE_CASE},
 * {@code UNICODE_CHARACTER_CLASS}, {@code CANON_EQ} (also inline: {@code u}, {@code U}, {@code x}),
 * anything unexpected.
 */
final class RequiredChars {

    private static final int UNSUPPORTED_FLAGS = Pattern.COMMENTS | Pattern.LITERAL | Pattern.UNICODE_CASE
            | Pattern.UNICODE_CHARACTER_CLASS | Pattern.CANON_EQ;
    /** Sets kept (the first ones of the sequence), and members per set. */
    private static final int MAX_SETS = 4;
    private static final int MAX_MEMBERS = 8;

    private RequiredChars() {
    }

    /**
     * Sets of characters, every match of {@code regex} (compiled with {@code flags}) containing a
     * member of each; {@code null} when none is known.
     */
    static char[][] of(String regex, int flags) {
        if ((flags & UNSUPPORTED_FLAGS) != 0 || regex.contains("\\Q") || unsupportedInlineFlags(regex)) {
            return null;
        }
        try {
            List<char[]> sets = new ArrayList<>();
            int n = regex.length();
            int i = 0;
            while (i < n) {
                char c = regex.charAt(i);
                char[] candidate = null;
                switch (c) {
                    case '|':
                        return null;
                    case '(':
                        i = groupEnd(regex, i);
                        break;
                    case '[': {
                        int end = classEnd(regex, i);
                        candidate = members(regex, i + 1, end);
                        i = end + 1;
                        break;
                    }
                    case '\\':
                        i = escapeEnd(regex, i);
                        break;
                    case '*':
                    case '+':
                    case '?':
                    case '{':
                    case ')':
                        return null; // a quantifier or close where an atom should be: not read here
                    default:
                        if (Character.isSurrogate(c)) {
                            return null;
                        }
                        candidate = c >= 0x80 ? new char[] {c} : null;
                        i++;
                }
                int[] min = {1};
                i = quantifierEnd(regex, i, min);
                if (candidate != null && min[0] >= 1 && sets.size() < MAX_SETS) {
                    sets.add(candidate);
                }
            }
            return sets.isEmpty() ? null : sets.toArray(char[][]::new);
        } catch (RuntimeException e) {
            return null; // anything unexpected: nothing known
        }
    }

    /** Whether {@code text} holds a member of every set (then a match may exist; otherwise none does). */
    static boolean present(String text, char[][] sets) {
        for (char[] set : sets) {
            boolean any = false;
            for (int k = 0; k < set.length && !any; k++) {
                any = text.indexOf(set[k]) >= 0;
            }
            if (!any) {
                return false;
            }
        }
        return true;
    }

    /** An inline flag group ({@code (?iu)}, {@code (?x:…)}) anywhere that turns on Unicode case, Unicode classes or comments. */
    private static boolean unsupportedInlineFlags(String re) {
        for (int at = re.indexOf("(?"); at >= 0; at = re.indexOf("(?", at + 1)) {
            if (at > 0 && re.charAt(at - 1) == '\\') {
                continue; // not quite right after "\\\\(": then it is refused too, which is safe
            }
            int k = at + 2;
            while (k < re.length() && (Character.isLetter(re.charAt(k)) || re.charAt(k) == '-')) {
                char f = re.charAt(k);
                if (f == 'u' || f == 'U' || f == 'x') {
                    return true;
                }
                k++;
            }
        }
        return false;
    }

    /** The index after the group opening at {@code i} (a quantifier may follow). */
    private static int groupEnd(String re, int i) {
        int depth = 0;
        for (int k = i; k < re.length(); k++) {
            char c = re.charAt(k);
            if (c == '\\') {
                k++;
            } else if (c == '[') {
                k = classEnd(re, k);
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return k + 1;
            }
        }
        throw new IllegalArgumentException("unclosed group");
    }

    /** The index of the {@code ]} closing the class opening at {@code i}; a nested class is refused. */
    private static int classEnd(String re, int i) {
        int k = i + 1;
        if (k < re.length() && re.charAt(k) == '^') {
            k++;
        }
        if (k < re.length() && re.charAt(k) == ']') {
            throw new IllegalArgumentException("a leading ']': not read here");
        }
        for (; k < re.length(); k++) {
            char c = re.charAt(k);
            if (c == '\\') {
                k++;
            } else if (c == '[') {
                throw new IllegalArgumentException("nested class");
            } else if (c == ']') {
                return k;
            }
        }
        throw new IllegalArgumentException("unclosed class");
    }

    /** The members of the class body {@code re[from, to)} when they are all plain non-ASCII characters (no negation, range, escape, intersection); else {@code null}. */
    private static char[] members(String re, int from, int to) {
        if (to <= from || to - from > MAX_MEMBERS) {
            return null;
        }
        char[] out = new char[to - from];
        for (int k = from; k < to; k++) {
            char c = re.charAt(k);
            if (c < 0x80 || Character.isSurrogate(c)) {
                return null; // '^', '-', '\\', '&', ASCII members: not a set of non-ASCII characters only
            }
            out[k - from] = c;
        }
        return out;
    }

    /** The index after the escape at {@code i}. */
    private static int escapeEnd(String re, int i) {
        char e = re.charAt(i + 1);
        if ((e == 'p' || e == 'P' || e == 'x' || e == 'N') && i + 2 < re.length() && re.charAt(i + 2) == '{') {
            int close = re.indexOf('}', i + 2);
            if (close < 0) {
                throw new IllegalArgumentException("unclosed escape");
            }
            return close + 1;
        }
        if (e == 'k') {
            int close = re.indexOf('>', i + 2);
            if (close < 0) {
                throw new IllegalArgumentException("unclosed escape");
            }
            return close + 1;
        }
        if (e == 'p' || e == 'P' || e == 'c') {
            return i + 3;
        }
        if (e == 'x') {
            return i + 4;
        }
        if (e == 'u') {
            return i + 6;
        }
        if (e == '0') {
            int k = i + 2;
            while (k < re.length() && k < i + 5 && re.charAt(k) >= '0' && re.charAt(k) <= '7') {
                k++;
            }
            return k;
        }
        if (Character.isSurrogate(e)) {
            throw new IllegalArgumentException("escaped surrogate");
        }
        return i + 2;
    }

    /** The index after the quantifier (if any) at {@code i}; {@code min[0]} its least repetition (1 without one). */
    private static int quantifierEnd(String re, int i, int[] min) {
        if (i >= re.length()) {
            return i;
        }
        char q = re.charAt(i);
        int k;
        if (q == '?' || q == '*') {
            min[0] = 0;
            k = i + 1;
        } else if (q == '+') {
            k = i + 1;
        } else if (q == '{') {
            int close = re.indexOf('}', i);
            String body = re.substring(i + 1, close);
            int comma = body.indexOf(',');
            min[0] = Integer.parseInt(comma < 0 ? body : body.substring(0, comma));
            k = close + 1;
        } else {
            return i;
        }
        if (k < re.length() && (re.charAt(k) == '?' || re.charAt(k) == '+')) {
            k++; // lazy or possessive: the same least repetition
        }
        return k;
    }
}
