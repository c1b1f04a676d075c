package io.recourse.classification;

/**
 * Load-time check that a catalogue regex cannot backtrack catastrophically (DESIGN §5.2
 * "bounded input"). The accepted dialect is a bounded subset of {@code java.util.regex}:
 * <ul>
 *   <li>no unbounded quantifier ({@code *}, {@code +}, {@code {m,}}): write {@code {0,n}} with
 *       {@code n <= }{@value #MAX_REPEAT};</li>
 *   <li>a quantified group may not contain a quantifier or an alternation (no {@code (a+)+},
 *       {@code (a|ab){1,9}}), except under {@code ?};</li>
 *   <li>no back-references;</li>
 *   <li>the backtracking estimate per start position — the product of the variable quantifier
 *       ranges along a branch, summed over alternatives — is at most
 *       {@value #MAX_BACKTRACK_PRODUCT}; a small range (at most 4, e.g. {@code \s{1,3}} or
 *       {@code ?}) standing alone between literals counts as 1, but counts fully when it is next
 *       to another quantified atom;</li>
 *   <li>at most {@value #MAX_LENGTH} characters.</li>
 * </ul>
 * With every field capped at 4 KiB this bounds the work per match linearly in the input.
 */
public final class RegexSafety {

    static final int MAX_LENGTH = 2000;
    static final int MAX_REPEAT = 256;
    static final long MAX_BACKTRACK_PRODUCT = 1L << 20;

    private RegexSafety() {
    }

    /** Returns {@code null} when {@code regex} is safe, else the reason it is rejected. */
    static String check(String regex) {
        if (regex.length() > MAX_LENGTH) {
            return "regex longer than " + MAX_LENGTH + " characters";
        }
        return new Scanner(regex).run();
    }

    private static final class Scanner {
        private final String re;
        private int i;
        // per open group: [containsQuantifier, containsAlternation]
        private final java.util.ArrayDeque<boolean[]> frames = new java.util.ArrayDeque<>();
        // per open group: [product of the current branch, sum over finished branches]
        private final java.util.ArrayDeque<long[]> costs = new java.util.ArrayDeque<>();
        private boolean previousQuantified;

        Scanner(String re) {
            this.re = re;
        }

        String run() {
            frames.push(new boolean[2]);
            costs.push(new long[] {1, 0});
            while (i < re.length()) {
                char c = re.charAt(i);
                boolean[] atom; // [isGroup, groupHasQuantifier, groupHasAlternation]
                switch (c) {
                    case '\\' -> {
                        String err = escape();
                        if (err != null) {
                            return err;
                        }
                        atom = new boolean[3];
                    }
                    case '[' -> {
                        String err = charClass();
                        if (err != null) {
                            return err;
                        }
                        atom = new boolean[3];
                    }
                    case '(' -> {
                        String err = openGroup();
                        if (err != null) {
                            return err;
                        }
                        continue;
                    }
                    case ')' -> {
                        if (frames.size() < 2) {
                            return "unbalanced ')'";
                        }
                        boolean[] f = frames.pop();
                        if (f[0]) {
                            frames.peek()[0] = true;
                        }
                        long[] g = costs.pop();
                        String err = multiply(g[0] + g[1]);
                        if (err != null) {
                            return err;
                        }
                        i++;
                        atom = new boolean[] {true, f[0], f[1]};
                    }
                    case '|' -> {
                        frames.peek()[1] = true;
                        long[] g = costs.peek();
                        g[1] += g[0];
                        g[0] = 1;
                        i++;
                        continue;
                    }
                    case '*', '+', '?', '{' -> {
                        return "quantifier '" + c + "' without an atom at " + i;
                    }
                    default -> {
                        i++;
                        atom = new boolean[3];
                    }
                }
                String err = quantifier(atom);
                if (err != null) {
                    return err;
                }
            }
            if (frames.size() != 1) {
                return "unbalanced '('";
            }
            long[] root = costs.peek();
            if (root[0] + root[1] > MAX_BACKTRACK_PRODUCT) {
                return "backtracking estimate exceeds " + MAX_BACKTRACK_PRODUCT + " steps per position";
            }
            return null;
        }

        private String escape() {
            if (i + 1 >= re.length()) {
                return "trailing backslash";
            }
            char n = re.charAt(i + 1);
            if (n >= '1' && n <= '9' || n == 'k') {
                return "back-reference at " + i;
            }
            if (n == 'Q') {
                int end = re.indexOf("\\E", i + 2);
                i = end < 0 ? re.length() : end + 2;
                return null;
            }
            if ((n == 'p' || n == 'P' || n == 'x') && i + 2 < re.length() && re.charAt(i + 2) == '{') {
                int end = re.indexOf('}', i + 3);
                if (end < 0) {
                    return "unterminated escape at " + i;
                }
                i = end + 1;
                return null;
            }
            i += 2;
            return null;
        }

        private String charClass() {
            int depth = 0;
            int start = i;
            while (i < re.length()) {
                char c = re.charAt(i);
                if (c == '\\') {
                    i += 2;
                    continue;
                }
                if (c == '[') {
                    depth++;
                } else if (c == ']' && i > start + 1 + (start + 1 < re.length() && re.charAt(start + 1) == '^' ? 1 : 0)) {
                    depth--;
                    if (depth == 0) {
                        i++;
                        return null;
                    }
                }
                i++;
            }
            return "unterminated character class at " + start;
        }

        private String openGroup() {
            if (re.startsWith("(?", i)) {
                int j = i + 2;
                if (j >= re.length()) {
                    return "unterminated group at " + i;
                }
                char k = re.charAt(j);
                if (k == ':' || k == '=' || k == '!' || k == '>') {
                    i = j + 1;
                } else if (k == '<') {
                    if (j + 1 < re.length() && (re.charAt(j + 1) == '=' || re.charAt(j + 1) == '!')) {
                        i = j + 2;
                    } else {
                        int end = re.indexOf('>', j);
                        if (end < 0) {
                            return "unterminated group name at " + i;
                        }
                        i = end + 1;
                    }
                } else {
                    // inline flags: (?i) or (?i:...)
                    int e = j;
                    while (e < re.length() && Character.isLetter(re.charAt(e)) || e < re.length() && re.charAt(e) == '-') {
                        e++;
                    }
                    if (e >= re.length()) {
                        return "unterminated flags at " + i;
                    }
                    if (re.charAt(e) == ')') {
                        i = e + 1;
                        return null;
                    }
                    if (re.charAt(e) != ':') {
                        return "unsupported group construct at " + i;
                    }
                    i = e + 1;
                }
            } else {
                i++;
            }
            frames.push(new boolean[2]);
            costs.push(new long[] {1, 0});
            return null;
        }

        private String multiply(long factor) {
            long[] g = costs.peek();
            g[0] = Math.min(g[0] * factor, MAX_BACKTRACK_PRODUCT + 1);
            if (g[0] > MAX_BACKTRACK_PRODUCT) {
                return "quantifier ranges multiply to more than " + MAX_BACKTRACK_PRODUCT
                        + " backtracking steps per position";
            }
            return null;
        }

        private String quantifier(boolean[] atom) {
            if (i >= re.length()) {
                previousQuantified = false;
                return null;
            }
            char c = re.charAt(i);
            long min;
            long max;
            if (c == '*' || c == '+') {
                return "unbounded quantifier '" + c + "' at " + i + " (use a bounded {m,n})";
            } else if (c == '?') {
                min = 0;
                max = 1;
                i++;
            } else if (c == '{') {
                int end = re.indexOf('}', i);
                if (end < 0) {
                    return "unterminated quantifier at " + i;
                }
                String body = re.substring(i + 1, end);
                String[] parts = body.split(",", -1);
                try {
                    min = Long.parseLong(parts[0].trim());
                    if (parts.length == 1) {
                        max = min;
                    } else if (parts[1].isBlank()) {
                        return "unbounded quantifier '{" + body + "}' at " + i + " (use a bounded {m,n})";
                    } else {
                        max = Long.parseLong(parts[1].trim());
                    }
                } catch (NumberFormatException e) {
                    return "malformed quantifier '{" + body + "}' at " + i;
                }
                if (max > MAX_REPEAT || max < min) {
                    return "quantifier '{" + body + "}' exceeds " + MAX_REPEAT;
                }
                i = end + 1;
            } else {
                previousQuantified = false;
                return null;
            }
            if (i < re.length() && (re.charAt(i) == '?' || re.charAt(i) == '+')) {
                i++; // lazy or possessive suffix
            }
            boolean optionalOnly = min == 0 && max == 1;
            if (atom[0] && (atom[1] || atom[2]) && !optionalOnly) {
                return "nested quantifier: a repeated group contains a quantifier or alternation at " + i;
            }
            frames.peek()[0] = true;
            long range = max - min + 1;
            boolean adjacent = previousQuantified;
            previousQuantified = true;
            return range > 4 || adjacent ? multiply(range) : null;
        }
    }
}
