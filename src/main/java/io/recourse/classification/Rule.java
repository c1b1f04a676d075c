package io.recourse.classification;

import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One declarative catalogue rule (DESIGN §5.2), as loaded from {@code provider-errors.vN.json}.
 * A rule matches a turn when every positive condition holds on some eligible signal (in
 * {@code seq} order when {@link #sequence()} is set) and no negated condition holds on any.
 *
 * @param id          stable id, e.g. {@code anthropic.overloaded.529.v1}
 * @param priority    unique; the highest-priority matching rule wins
 * @param agents      agent scoping: adapter ids or families ({@code claude} matches
 *                    {@code claude-acp}); empty = any agent
 * @param providers   provider scoping ({@code provider_id}); empty = any provider
 * @param phase       which dispatch phase the signals must come from
 * @param conditions  all must hold
 * @param sequence    positive conditions must hold on signals in increasing {@code seq}
 * @param background  the rule reads a background request (title/summary calls): at most
 *                    {@code medium} confidence
 * @param hints       hint extractor names, tried in order ({@code rate_limited} and
 *                    {@code quota_limited} rules only)
 * @param why         the author's reason, shown by {@code catalogue explain}
 */
public record Rule(
        String id,
        int priority,
        Set<String> agents,
        Set<String> providers,
        PhaseScope phase,
        List<Condition> conditions,
        boolean sequence,
        Code code,
        Confidence confidence,
        Scope scope,
        boolean background,
        List<String> hints,
        String why) {

    public Rule {
        Objects.requireNonNull(id, "id");
        agents = Set.copyOf(agents);
        providers = Set.copyOf(providers);
        conditions = List.copyOf(conditions);
        hints = List.copyOf(hints);
    }

    /** True when {@code agentType} is in scope ({@code null} agent only matches unscoped rules). */
    public boolean appliesToAgent(String agentType) {
        return agents.isEmpty() || agentType != null && inFamily(agents, agentType);
    }

    /** True when {@code providerId} is in scope. */
    public boolean appliesToProvider(String providerId) {
        return providers.isEmpty() || providerId != null && providers.contains(providerId.toLowerCase(Locale.ROOT));
    }

    static boolean inFamily(Set<String> names, String agentType) {
        String a = agentType.toLowerCase(Locale.ROOT);
        for (String n : names) {
            if (a.equals(n) || a.startsWith(n + "-")) {
                return true;
            }
        }
        return false;
    }

    /** Which phases a rule reads signals from (signal phase, else the turn's launch flag). */
    public enum PhaseScope {
        ANY, PRE_START, POST_START;

        /** True when a signal observed pre-start ({@code preStart}) is in scope. */
        public boolean admits(boolean preStart) {
            return this == ANY || (this == PRE_START) == preStart;
        }
    }

    /** A signal field a condition reads: kind and field name, e.g. {@code error.message}. */
    public record Target(SignalKind kind, String field) {

        @Override
        public String toString() {
            return kind.wire() + "." + field;
        }
    }

    /**
     * One test on signal fields.
     *
     * @param targets the kind/field pairs it reads (any of them may match); {@code header.<name>}
     *                for HTTP headers
     * @param match   the test on a field value
     * @param unless  when set, a signal whose read fields match this is not a hit (e.g. a
     *                cancellation marker next to transport wording)
     * @param negate  the condition holds when <em>no</em> eligible signal is a hit
     */
    public record Condition(List<Target> targets, FieldMatch match, FieldMatch unless, boolean negate) {

        public Condition {
            targets = List.copyOf(targets);
        }

        /** True when {@code signal} is a hit (ignoring {@link #negate()}). */
        public boolean hits(Signal signal, int maxChars) {
            return hits(signal, maxChars, false);
        }

        /** {@link #hits(Signal, int)}; {@code plainRegex}: run regexes as they are, without {@link RegexPrefilter}. */
        boolean hits(Signal signal, int maxChars, boolean plainRegex) {
            boolean hit = false;
            for (Target t : targets) {
                if (t.kind() != signal.kind()) {
                    continue;
                }
                String v = signal.field(t.field());
                if (v == null) {
                    continue;
                }
                v = bound(v, maxChars);
                if (unless != null && unless.test(v, plainRegex)) {
                    return false;
                }
                hit = hit || match.test(v, plainRegex);
            }
            return hit;
        }

        /** Short human form for {@code explain}, e.g. {@code error.message ~ /…/}. */
        public String describe() {
            StringBuilder b = new StringBuilder(negate ? "not " : "");
            b.append(targets.size() == 1 ? targets.get(0).toString() : targets.toString());
            b.append(' ').append(match.describe());
            if (unless != null) {
                b.append(" unless ").append(unless.describe());
            }
            return b.toString();
        }
    }

    static String bound(String v, int maxChars) {
        return v.length() <= maxChars ? v : v.substring(0, maxChars);
    }

    /** How a field value is tested. */
    public enum MatchType { LITERAL, LITERAL_CI, EQUALS, EQUALS_CI, REGEX, NUMBER }

    /**
     * A field test: substring literal (case-sensitive or not), whole-value equality, bounded
     * regex ({@link java.util.regex.Matcher#find()}), or numeric equality against a set.
     *
     * @param patterns for {@link MatchType#REGEX}: one to four regexes (a catalogue {@code regex}
     *                 list, or an {@code unless} list), the test passing when any of them finds a
     *                 match; each is its own compiled pattern, read by the fast paths as a
     *                 separate regex would be; empty for other types
     */
    public record FieldMatch(MatchType type, String literal, List<Pattern> patterns, Set<Long> numbers) {

        public FieldMatch {
            patterns = patterns == null ? List.of() : List.copyOf(patterns);
            if (type == MatchType.REGEX && patterns.isEmpty()) {
                throw new IllegalArgumentException("a regex test needs a pattern");
            }
        }

        /** A regex test of one pattern. */
        static FieldMatch regex(Pattern pattern) {
            return new FieldMatch(MatchType.REGEX, null, List.of(pattern), null);
        }

        /** True when {@code value} passes. */
        public boolean test(String value) {
            return test(value, false);
        }

        /** {@link #test(String)}; {@code plainRegex}: {@code pattern.matcher(value).find()} without {@link RegexPrefilter}. */
        boolean test(String value, boolean plainRegex) {
            return switch (type) {
                case LITERAL -> value.contains(literal);
                case LITERAL_CI -> value.toLowerCase(Locale.ROOT).contains(literal.toLowerCase(Locale.ROOT));
                case EQUALS -> value.equals(literal);
                case EQUALS_CI -> value.equalsIgnoreCase(literal);
                case REGEX -> anyFinds(value, plainRegex);
                case NUMBER -> {
                    Long n = parseLong(value.trim());
                    yield n != null && numbers.contains(n);
                }
            };
        }

        /** Whether one of {@link #patterns} finds a match in {@code value}, in their order. */
        private boolean anyFinds(String value, boolean plainRegex) {
            for (Pattern p : patterns) {
                if (plainRegex ? p.matcher(value).find()
                               : RegexPrefilter.of(p).find(value)) { // exactly p.matcher(value).find(), faster
                    return true;
                }
            }
            return false;
        }

        /**
         * {@code Long.parseLong(s)}, or {@code null} where it throws; text that is plainly not a
         * number (an ASCII character other than a sign or digit) is refused without the exception.
         */
        static Long parseLong(String s) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c < 0x80 && (c < '0' || c > '9') && !(i == 0 && (c == '-' || c == '+'))) {
                    return null;
                }
            }
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                return null;
            }
        }

        String describe() {
            return switch (type) {
                case LITERAL -> "contains '" + literal + "'";
                case LITERAL_CI -> "contains (any case) '" + literal + "'";
                case EQUALS -> "= '" + literal + "'";
                case EQUALS_CI -> "= (any case) '" + literal + "'";
                case REGEX -> "~ " + String.join(" or ", patterns.stream().map(p -> "/" + p.pattern() + "/").toList());
                case NUMBER -> "in " + new java.util.TreeSet<>(numbers);
            };
        }
    }
}
