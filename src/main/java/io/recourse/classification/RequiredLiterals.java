package io.recourse.classification;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The literals every match of a catalogue regex contains, as a conjunction of clauses:
 * each clause is a set of ASCII literals of which at least one occurs in every match. A text
 * lacking all literals of some clause cannot match, so {@link RuleIndex} does not run the regex
 * on it.
 *
 * <p>Read from the pattern: runs of literal characters that no quantifier makes optional give
 * one-literal clauses (every run, not only the longest); a non-optional group whose alternatives
 * each have a clause gives the union of one clause of each. Classes, {@code .}, escapes such as
 * {@code \s}, anchors and lookarounds end a run and contribute nothing. Case-insensitive patterns
 * ({@code CASE_INSENSITIVE} without {@code UNICODE_CASE}: ASCII folding) give lower-case literals
 * to compare with the text's ASCII-folded form. A pattern using a construct this reader does not
 * model (inline flags other than a scoped case, dot-all or line flag group {@code (?i:…)}, whose
 * content gives nothing; back references, quoting, nested classes, other flags) gives no clauses.
 */
public final class RequiredLiterals {

    /** Shortest literal kept in a clause. */
    static final int MIN_LITERAL = 3;

    private static final int SUPPORTED_FLAGS = Pattern.CASE_INSENSITIVE | Pattern.DOTALL | Pattern.MULTILINE;

    private RequiredLiterals() {
    }

    /**
     * The clauses of {@code regex} compiled with {@code flags}: every match contains, for each
     * clause, at least one of its literals (lower case when {@code CASE_INSENSITIVE}). Empty when
     * nothing is known.
     */
    static List<List<String>> of(String regex, int flags) {
        if ((flags & ~SUPPORTED_FLAGS) != 0) {
            return List.of();
        }
        boolean ci = (flags & Pattern.CASE_INSENSITIVE) != 0;
        try {
            Reader r = new Reader(regex);
            List<List<List<String>>> alternatives = r.alternation();
            if (r.pos != regex.length()) {
                return List.of(); // a stray ')'
            }
            List<List<String>> clauses = group(alternatives);
            if (!ci) {
                return clauses;
            }
            List<List<String>> folded = new ArrayList<>();
            for (List<String> c : clauses) {
                folded.add(c.stream().map(l -> l.toLowerCase(Locale.ROOT)).distinct().toList());
            }
            return folded;
        } catch (Unsupported e) {
            return List.of();
        }
    }

    /** The clauses a group of {@code alternatives} guarantees: all of a single one's; one union clause of several. */
    private static List<List<String>> group(List<List<List<String>>> alternatives) {
        if (alternatives.size() == 1) {
            return alternatives.get(0);
        }
        LinkedHashSet<String> union = new LinkedHashSet<>();
        for (List<List<String>> alt : alternatives) {
            List<String> best = best(alt);
            if (best == null) {
                return List.of();
            }
            union.addAll(best);
        }
        return List.of(List.copyOf(union));
    }

    /** The most selective clause: fewest literals, then the longest shortest literal; {@code null} when none. */
    static List<String> best(List<List<String>> clauses) {
        List<String> best = null;
        for (List<String> c : clauses) {
            if (best == null || c.size() < best.size() || c.size() == best.size() && shortest(c) > shortest(best)) {
                best = c;
            }
        }
        return best;
    }

    private static int shortest(List<String> clause) {
        return clause.stream().mapToInt(String::length).min().orElse(0);
    }

    /** A construct the reader does not model: no clauses for the pattern. */
    private static final class Unsupported extends RuntimeException {
        Unsupported() {
            super(null, null, false, false);
        }
    }

    /** A recursive-descent reader of the regex syntax the catalogue uses. */
    private static final class Reader {
        private final String re;
        int pos;

        Reader(String re) {
            this.re = re;
        }

        /** Alternatives up to a ')' or the end; per alternative its clauses. */
        List<List<List<String>>> alternation() {
            List<List<List<String>>> out = new ArrayList<>();
            out.add(sequence());
            while (pos < re.length() && re.charAt(pos) == '|') {
                pos++;
                out.add(sequence());
            }
            return out;
        }

        private List<List<String>> sequence() {
            List<List<String>> clauses = new ArrayList<>();
            StringBuilder run = new StringBuilder();
            while (pos < re.length()) {
                char c = re.charAt(pos);
                if (c == '|' || c == ')') {
                    break;
                }
                Character literal = null;
                List<List<String>> groupClauses = null;
                if (c == '(') {
                    groupClauses = groupAtom();
                } else if (c == '[') {
                    pos = classEnd(pos) + 1;
                } else if (c == '\\') {
                    literal = escape();
                } else if (c == '*' || c == '+' || c == '?' || c == '{') {
                    throw new Unsupported(); // a quantifier without an atom
                } else {
                    pos++;
                    if (c != '.' && c != '^' && c != '$') {
                        literal = c;
                    }
                }
                int[] q = quantifier();
                int min = q[0];
                boolean once = q[1] == 1;
                if (literal != null && literal < 0x80 && min >= 1) {
                    run.append(literal.charValue());
                    if (!once) {
                        flush(run, clauses); // "a+", "a{2,3}": the run may not continue right after one 'a'
                    }
                } else {
                    flush(run, clauses);
                }
                if (groupClauses != null && min >= 1) {
                    clauses.addAll(groupClauses);
                }
            }
            flush(run, clauses);
            return clauses;
        }

        private static void flush(StringBuilder run, List<List<String>> clauses) {
            if (run.length() >= MIN_LITERAL) {
                clauses.add(List.of(run.toString()));
            }
            run.setLength(0);
        }

        /** A group at {@code pos} ('('); its clauses, or {@code null} for a lookaround (zero width). */
        private List<List<String>> groupAtom() {
            boolean lookaround = false;
            if (re.startsWith("(?:", pos) || re.startsWith("(?>", pos)) {
                pos += 3;
            } else if (re.startsWith("(?=", pos) || re.startsWith("(?!", pos)) {
                pos += 3;
                lookaround = true;
            } else if (re.startsWith("(?<=", pos) || re.startsWith("(?<!", pos)) {
                pos += 4;
                lookaround = true;
            } else if (re.startsWith("(?<", pos)) {
                int close = re.indexOf('>', pos);
                if (close < 0) {
                    throw new Unsupported();
                }
                pos = close + 1; // a named group
            } else if (re.startsWith("(?", pos)) {
                int k = pos + 2;
                while (k < re.length() && "imsdu-".indexOf(re.charAt(k)) >= 0) {
                    k++;
                }
                if (k == pos + 2 || k == re.length() || re.charAt(k) != ':') {
                    throw new Unsupported(); // (?i) to the end of the group, or flags not modelled
                }
                pos = k + 1; // a scoped flag group: read through, its literals not kept (they compare otherwise)
                alternation();
                if (pos >= re.length() || re.charAt(pos) != ')') {
                    throw new Unsupported();
                }
                pos++;
                return List.of();
            } else {
                pos++;
            }
            List<List<List<String>>> alternatives = alternation();
            if (pos >= re.length() || re.charAt(pos) != ')') {
                throw new Unsupported();
            }
            pos++;
            return lookaround ? null : group(alternatives);
        }

        /** An escape at {@code pos}: the literal character it stands for, or {@code null} for any other construct. */
        private Character escape() {
            if (pos + 1 >= re.length()) {
                throw new Unsupported();
            }
            char n = re.charAt(pos + 1);
            if (n >= 0x80 || !Character.isLetterOrDigit(n)) {
                pos += 2;
                return n;
            }
            switch (n) {
                case '0' -> {
                    pos += 2;
                    for (int k = 0; k < 3 && pos < re.length() && re.charAt(pos) >= '0' && re.charAt(pos) <= '7'; k++) {
                        pos++;
                    }
                }
                case 'x' -> {
                    if (re.startsWith("\\x{", pos)) {
                        pos = braceEnd(pos + 2) + 1;
                    } else {
                        pos += 4;
                    }
                }
                case 'u' -> pos += 6;
                case 'c' -> pos += 3;
                case 'p', 'P', 'N' -> {
                    if (pos + 2 < re.length() && re.charAt(pos + 2) == '{') {
                        pos = braceEnd(pos + 2) + 1;
                    } else {
                        pos += 3;
                    }
                }
                case 'b' -> {
                    if (re.startsWith("\\b{", pos)) {
                        throw new Unsupported();
                    }
                    pos += 2;
                }
                case 't', 'n', 'r', 'f', 'a', 'e', 's', 'S', 'd', 'D', 'w', 'W', 'B', 'A', 'G', 'Z', 'z', 'h', 'H',
                        'v', 'V', 'R', 'X' -> pos += 2;
                default -> throw new Unsupported(); // back references, \Q…\E, \k<…>, anything else
            }
            if (pos > re.length()) {
                throw new Unsupported();
            }
            return null;
        }

        private int braceEnd(int open) {
            int close = re.indexOf('}', open);
            if (close < 0) {
                throw new Unsupported();
            }
            return close;
        }

        /** Index of the ']' closing the class opened at {@code open}; nested classes are not modelled. */
        private int classEnd(int open) {
            int i = open + 1;
            if (i < re.length() && re.charAt(i) == '^') {
                i++;
            }
            if (i < re.length() && re.charAt(i) == ']') {
                throw new Unsupported(); // "[]…]": a reading that differs between engines
            }
            for (; i < re.length(); i++) {
                char c = re.charAt(i);
                if (c == '\\') {
                    i++;
                } else if (c == '[') {
                    throw new Unsupported();
                } else if (c == ']') {
                    return i;
                }
            }
            throw new Unsupported();
        }

        /** The quantifier at {@code pos}, if any: {@code {min, 1 when exactly once}}; consumed with its lazy/possessive mark. */
        private int[] quantifier() {
            if (pos >= re.length()) {
                return new int[] {1, 1};
            }
            char q = re.charAt(pos);
            int min;
            boolean once = false;
            switch (q) {
                case '?', '*' -> {
                    min = 0;
                    pos++;
                }
                case '+' -> {
                    min = 1;
                    pos++;
                }
                case '{' -> {
                    int close = braceEnd(pos);
                    String body = re.substring(pos + 1, close);
                    if (!body.matches("\\d{1,9}(?:,\\d{0,9})?")) {
                        throw new Unsupported();
                    }
                    int comma = body.indexOf(',');
                    min = Integer.parseInt(comma < 0 ? body : body.substring(0, comma));
                    once = body.equals("1") || body.equals("1,1");
                    pos = close + 1;
                }
                default -> {
                    return new int[] {1, 1};
                }
            }
            if (pos < re.length() && (re.charAt(pos) == '?' || re.charAt(pos) == '+')) {
                pos++;
            }
            return new int[] {min, once ? 1 : 0};
        }
    }
}
