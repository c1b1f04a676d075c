package io.recourse.classification;

import io.recourse.classification.Catalogue.Marker;
import io.recourse.classification.Rule.Condition;
import io.recourse.classification.Rule.FieldMatch;
import io.recourse.classification.Rule.MatchType;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The catalogue compiled once, at load, for {@link Classifier#classify} (issue 8: a target of
 * 500,000 signals per second on one core). It decides exactly what the rules decide —
 * {@code ClassifierFastPathProperties} checks it against the sequential evaluation — but reads
 * each field of a turn's signals once:
 *
 * <ul>
 *   <li>every catalogue regex is split into its top-level alternatives ({@link RegexPrefilter});
 *       each alternative gets clauses of literals every match contains ({@link RequiredLiterals},
 *       and its leading literals: one of them starts every match); all go into one
 *       {@link LiteralSet} for the whole catalogue;</li>
 *   <li>a field's text (bounded to {@link Classifier#MAX_FIELD_CHARS}) is scanned once per
 *       turn, on first use: that gives the literals present and, through them, the regexes with
 *       at least one alternative whose clauses all hold ("admitted");</li>
 *   <li>a regex test on the field is then {@code false} without running anything unless the
 *       regex is admitted, and runs only its admitted alternatives — one anchored with
 *       {@code ^} as {@code lookingAt()}, one with leading literals only where they occur
 *       ({@code lookingAt()} from each, with transparent bounds), others as {@code find()};</li>
 *   <li>a rule whose positive condition reads no kind of the turn, or whose regex no field
 *       admits, is passed over without reading any signal ({@link Turn#possible}).</li>
 * </ul>
 *
 * Nothing is remembered across turns: per turn, a {@link Turn} holds the fields read so far.
 */
final class RuleIndex {

    private final LiteralSet literals;
    /** Literal id → the alternatives it gates. */
    private final int[][] triggers;
    private final Alternative[] alternatives;
    /** Regexes (gate ids) with an alternative that has no literal: always admitted. */
    private final long[] ungated;
    /** Gate id (one per catalogue regex) → its alternatives. */
    private final Alternative[][] gates;
    private final Map<FieldMatch, Integer> gateIds;
    /** Distinct fields the catalogue reads; a target id is an index. */
    private final Rule.Target[] targets;
    /** Per {@link SignalKind} ordinal, the targets some regex reads. */
    private final int[][] regexTargets;
    private final CompiledRule[] rules;
    private final CompiledMarker[] backgroundMarkers;
    private final CompiledMarker[] surfacedShapes;
    /** Scope id → the agent families of the rules and markers with that scope (lower case; empty: any agent). */
    private final String[][] scopes;

    private RuleIndex(List<Rule> rules, List<Marker> background, List<Marker> surfaced) {
        Builder b = new Builder();
        this.rules = rules.stream().map(r -> new CompiledRule(r, b)).toArray(CompiledRule[]::new);
        this.backgroundMarkers = background.stream().map(m -> new CompiledMarker(m, b)).toArray(CompiledMarker[]::new);
        this.surfacedShapes = surfaced.stream().map(m -> new CompiledMarker(m, b)).toArray(CompiledMarker[]::new);
        this.literals = new LiteralSet(b.literalText, b.literalCaseSensitive);
        this.scopes = b.scopes.toArray(String[][]::new);
        this.alternatives = b.alternatives.toArray(Alternative[]::new);
        this.gates = b.gates.toArray(Alternative[][]::new);
        this.gateIds = b.gateIds;
        this.targets = b.targets.toArray(Rule.Target[]::new);
        this.regexTargets = new int[SignalKind.values().length][];
        for (SignalKind k : SignalKind.values()) {
            regexTargets[k.ordinal()] = b.regexTargets.stream().filter(t -> targets[t].kind() == k)
                    .mapToInt(Integer::intValue).sorted().toArray();
        }
        List<List<Integer>> byLiteral = new ArrayList<>();
        for (int i = 0; i < literals.size(); i++) {
            byLiteral.add(new ArrayList<>());
        }
        this.ungated = new long[(gates.length + 63) >>> 6];
        for (int a = 0; a < alternatives.length; a++) {
            Alternative alt = alternatives[a];
            if (alt.trigger == null) {
                set(ungated, alt.gate);
                continue;
            }
            for (int l : alt.trigger) { // every clause must hold: one of them is enough to start the check
                byLiteral.get(l).add(a);
            }
        }
        this.triggers = byLiteral.stream().map(l -> l.stream().distinct().mapToInt(Integer::intValue).toArray())
                .toArray(int[][]::new);
    }

    /**
     * Compiles {@code rules} (highest priority first) and the markers.
     *
     * @throws IllegalArgumentException when a regex literal is not ASCII (never, for literals
     *         {@link RegexPrefilter} derives)
     */
    static RuleIndex of(List<Rule> rules, List<Marker> background, List<Marker> surfaced) {
        return new RuleIndex(rules, background, surfaced);
    }

    CompiledRule[] rules() {
        return rules;
    }

    CompiledMarker[] backgroundMarkers() {
        return backgroundMarkers;
    }

    CompiledMarker[] surfacedShapes() {
        return surfacedShapes;
    }

    /**
     * Whether the catalogue regex test {@code match} holds on {@code text} (bounded to
     * {@link Classifier#MAX_FIELD_CHARS}) as {@link Classifier#classify} decides it: scan, gate,
     * admitted alternatives. For tests.
     *
     * @throws IllegalArgumentException when {@code match} is not one of the catalogue's regex tests
     */
    boolean regexHolds(FieldMatch match, String text) {
        Integer gate = gateIds.get(match);
        if (gate == null) {
            throw new IllegalArgumentException("not a regex test of this catalogue: " + match);
        }
        Turn turn = new Turn(List.of());
        Field f = new Field(Rule.bound(text, Classifier.MAX_FIELD_CHARS));
        turn.scan(f);
        return turn.test(match, gate, f);
    }

    /** Literals in the automaton, regex alternatives, alternatives without a literal (for tests and reports). */
    String stats() {
        int bare = 0;
        for (Alternative a : alternatives) {
            bare += a.trigger == null ? 1 : 0;
        }
        return literals.size() + " literals, " + alternatives.length + " alternatives, " + bare + " without literals, "
                + targets.length + " fields";
    }

    /**
     * Per scope id ({@link CompiledRule#scope}, {@link CompiledMarker#scope}): whether an agent of
     * type {@code agent} (lower case, or {@code null}) is in it — exactly {@link Rule#appliesToAgent}.
     * Each distinct agent scope of the catalogue is decided once per turn.
     */
    boolean[] agentScopes(String agent) {
        boolean[] out = new boolean[scopes.length];
        for (int k = 0; k < scopes.length; k++) {
            out[k] = inScope(scopes[k], agent);
        }
        return out;
    }

    private static boolean inScope(String[] agents, String agent) {
        if (agents.length == 0) {
            return true;
        }
        if (agent == null) {
            return false;
        }
        for (String a : agents) {
            if (agent.startsWith(a) && (agent.length() == a.length() || agent.charAt(a.length()) == '-')) {
                return true;
            }
        }
        return false;
    }

    /** Per-turn state: the signals and the fields read so far. */
    Turn turn(List<Signal> signals) {
        return new Turn(signals);
    }

    /**
     * The fields of one turn's signals, each read, bounded and scanned at most once. Every field
     * some regex reads is scanned up front, which gives the turn's kinds and the regexes admitted
     * somewhere in it: a condition outside them cannot hold on any signal ({@link #possible}).
     */
    final class Turn {

        private final List<Signal> signals;
        private final Field[] fields;
        private final LiteralSet.Scratch scratch = new LiteralSet.Scratch();
        /** Bit per {@link SignalKind} ordinal of the turn's signals. */
        private int kinds;
        /** Gates admitted in some field of the turn. */
        private final long[] admitted = new long[ungated.length];

        private boolean scannedAll;
        /** Per alternative id, its matcher in this turn (created on first use, then reset to each text). */
        private Matcher[] matchers;

        private Matcher[] matchers() {
            if (matchers == null) {
                matchers = new Matcher[alternatives.length];
            }
            return matchers;
        }

        private Turn(List<Signal> signals) {
            this.signals = signals;
            this.fields = new Field[signals.size() * targets.length];
        }

        /** Scans every field some regex reads (once), for {@link #possible}. */
        private void scanAll() {
            scannedAll = true;
            for (int i = 0; i < signals.size(); i++) {
                SignalKind kind = signals.get(i).kind();
                kinds |= 1 << kind.ordinal();
                for (int t : regexTargets[kind.ordinal()]) {
                    Field f = field(i, t);
                    if (f != ABSENT) {
                        if (f.admitted == null) {
                            scan(f);
                        }
                        for (int w = 0; w < admitted.length; w++) {
                            admitted[w] |= f.admitted[w];
                        }
                    }
                }
            }
        }

        /**
         * False when {@code c} cannot hold on any signal of the turn: no signal of a kind it
         * reads, or its regex admitted in no field. (True does not mean it holds.)
         */
        boolean possible(CompiledCondition c) {
            if (!scannedAll) {
                scanAll();
            }
            return (c.kinds & kinds) != 0 && (c.matchGate < 0 || isSet(admitted, c.matchGate));
        }

        /**
         * Exactly {@code condition.hits(signals.get(i), MAX_FIELD_CHARS)} ({@link Condition#hits}):
         * any read field matches, and none matches the condition's {@code unless}.
         */
        boolean hits(CompiledCondition c, int i) {
            Signal s = signals.get(i);
            if ((c.kinds & (1 << s.kind().ordinal())) == 0) {
                return false;
            }
            boolean hit = false;
            for (int k = 0; k < c.targets.length && !hit; k++) {
                if (c.targetKinds[k] != s.kind()) {
                    continue;
                }
                Field f = field(i, c.targets[k]);
                if (f != ABSENT) {
                    hit = test(c.match, c.matchGate, f);
                }
            }
            if (!hit || c.unless == null) {
                return hit;
            }
            for (int k = 0; k < c.targets.length; k++) { // the unless only where the match holds: it is often the dearer test
                if (c.targetKinds[k] != s.kind()) {
                    continue;
                }
                Field f = field(i, c.targets[k]);
                if (f != ABSENT && test(c.unless, c.unlessGate, f)) {
                    return false;
                }
            }
            return true;
        }

        private Field field(int i, int target) {
            int slot = i * targets.length + target;
            Field f = fields[slot];
            if (f == null) {
                String v = signals.get(i).field(targets[target].field());
                f = v == null ? ABSENT : new Field(Rule.bound(v, Classifier.MAX_FIELD_CHARS));
                fields[slot] = f;
            }
            return f;
        }

        private boolean test(FieldMatch match, int gate, Field f) {
            if (gate < 0) {
                return match.test(f.value);
            }
            if (f.admitted == null) {
                scan(f);
            }
            if (!isSet(f.admitted, gate)) {
                return false;
            }
            for (Alternative a : gates[gate]) {
                if (a.admitted(f.present) && a.find(f.value, f.found, matchers())) {
                    return true;
                }
            }
            return false;
        }

        private void scan(Field f) {
            long[] present = new long[literals.words()];
            int[] found = literals.scan(f.value, present, scratch);
            long[] admitted = ungated.clone();
            for (int k = 0; k < found.length; k += 2) {
                for (int a : triggers[found[k]]) {
                    Alternative alt = alternatives[a];
                    if (!isSet(admitted, alt.gate) && alt.admitted(present)) {
                        set(admitted, alt.gate);
                    }
                }
            }
            f.present = present;
            f.found = found;
            f.admitted = admitted;
        }
    }

    private static final Field ABSENT = new Field(null);

    /** One field of one signal in one turn: its bounded text and, once scanned, its literals. */
    private static final class Field {
        final String value;
        long[] present;
        int[] found;
        long[] admitted;

        Field(String value) {
            this.value = value;
        }
    }

    /** One top-level alternative of a catalogue regex. */
    private static final class Alternative {
        private static final int NONE = Integer.MAX_VALUE;

        /** Index in {@link RuleIndex#alternatives}. */
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

        Alternative(int id, int gate, Pattern pattern, List<int[]> clauses, String[] starts, int[] startIds, boolean caseSensitive,
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
                    if (isSet(present, l)) {
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
         */
        boolean find(String text, int[] found, Matcher[] matchers) {
            if (anchored) {
                return matcher(text, matchers).lookingAt(); // '^' matches only at 0
            }
            if (starts == null) {
                return matcher(text, matchers).find();
            }
            int n = text.length();
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
         * with transparent, non-anchoring bounds when it is tried from its leading literals.
         */
        private Matcher matcher(String text, Matcher[] matchers) {
            Matcher m = matchers[id];
            if (m == null) {
                m = pattern.matcher(text);
                if (!anchored && starts != null) {
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

    /** A rule with its conditions compiled; {@code agents} and {@code providers} lower case. */
    static final class CompiledRule {
        final Rule rule;
        final CompiledCondition[] negated;
        final CompiledCondition[] positive;
        /** Index into {@link #agentScopes}. */
        final int scope;

        CompiledRule(Rule rule, Builder b) {
            this.rule = rule;
            this.scope = b.scope(rule.agents());
            List<CompiledCondition> neg = new ArrayList<>();
            List<CompiledCondition> pos = new ArrayList<>();
            for (Condition c : rule.conditions()) {
                (c.negate() ? neg : pos).add(b.condition(c));
            }
            this.negated = neg.toArray(CompiledCondition[]::new);
            this.positive = pos.toArray(CompiledCondition[]::new);
        }
    }

    /** A marker with its condition compiled. */
    static final class CompiledMarker {
        final Marker marker;
        final CompiledCondition condition;
        /** Index into {@link #agentScopes}. */
        final int scope;

        CompiledMarker(Marker marker, Builder b) {
            this.marker = marker;
            this.scope = b.scope(marker.agents());
            this.condition = b.condition(marker.condition());
        }
    }

    /** A condition: the kinds it reads (bit per {@link SignalKind} ordinal), its fields and tests. */
    static final class CompiledCondition {
        final int kinds;
        final int[] targets;
        final SignalKind[] targetKinds;
        final FieldMatch match;
        final int matchGate;
        final FieldMatch unless;
        final int unlessGate;

        CompiledCondition(int kinds, int[] targets, SignalKind[] targetKinds, FieldMatch match, int matchGate,
                          FieldMatch unless, int unlessGate) {
            this.kinds = kinds;
            this.targets = targets;
            this.targetKinds = targetKinds;
            this.match = match;
            this.matchGate = matchGate;
            this.unless = unless;
            this.unlessGate = unlessGate;
        }
    }

    /** Collects literals, alternatives, gates and targets while conditions compile. */
    private static final class Builder {
        final List<String> literalText = new ArrayList<>();
        final List<Boolean> literalCaseSensitive = new ArrayList<>();
        final Map<String, Integer> literalIds = new HashMap<>();
        final List<Alternative> alternatives = new ArrayList<>();
        final List<Alternative[]> gates = new ArrayList<>();
        final Map<FieldMatch, Integer> gateIds = new IdentityHashMap<>();
        final List<Rule.Target> targets = new ArrayList<>();
        final Map<Rule.Target, Integer> targetIds = new HashMap<>();
        final java.util.Set<Integer> regexTargets = new java.util.HashSet<>();
        final List<String[]> scopes = new ArrayList<>();
        final Map<java.util.Set<String>, Integer> scopeIds = new HashMap<>();

        int scope(java.util.Set<String> agents) {
            return scopeIds.computeIfAbsent(agents, a -> {
                scopes.add(a.stream().sorted().toArray(String[]::new));
                return scopes.size() - 1;
            });
        }

        CompiledCondition condition(Condition c) {
            int kinds = 0;
            int[] ids = new int[c.targets().size()];
            SignalKind[] kindOf = new SignalKind[ids.length];
            for (int k = 0; k < ids.length; k++) {
                Rule.Target t = c.targets().get(k);
                kinds |= 1 << t.kind().ordinal();
                ids[k] = targetIds.computeIfAbsent(t, x -> {
                    targets.add(x);
                    return targets.size() - 1;
                });
                kindOf[k] = t.kind();
            }
            int matchGate = gate(c.match());
            int unlessGate = gate(c.unless());
            if (matchGate >= 0 || unlessGate >= 0) {
                for (int id : ids) {
                    regexTargets.add(id);
                }
            }
            return new CompiledCondition(kinds, ids, kindOf, c.match(), matchGate, c.unless(), unlessGate);
        }

        /** The gate id of a regex test; -1 for other tests (they run as they are). */
        int gate(FieldMatch m) {
            if (m == null || m.type() != MatchType.REGEX) {
                return -1;
            }
            Integer known = gateIds.get(m);
            if (known != null) {
                return known;
            }
            int id = gates.size();
            RegexPrefilter p = RegexPrefilter.of(m.pattern());
            boolean caseSensitive = !p.ignoreCase();
            List<Alternative> alts = new ArrayList<>();
            for (RegexPrefilter.Part part : p.parts()) {
                List<List<String>> clauses = new ArrayList<>();
                String[] starts = part.literals();
                int[] startIds = null;
                if (starts != null) {
                    startIds = new int[starts.length];
                    boolean all = true;
                    for (int k = 0; k < starts.length; k++) {
                        boolean scanned = starts[k].length() >= LiteralSet.MIN_LENGTH;
                        startIds[k] = scanned ? literal(starts[k], caseSensitive) : -1;
                        all &= scanned;
                    }
                    if (all) {
                        clauses.add(List.of(starts));
                    }
                }
                if (part.required() != null) {
                    clauses.add(List.of(part.required()));
                }
                clauses.addAll(RequiredLiterals.of(part.pattern().pattern(), part.pattern().flags()));
                List<int[]> ids = new ArrayList<>();
                for (List<String> c : clauses) { // all of them: fewer regex runs pay for the longer scan
                    ids.add(c.stream().mapToInt(l -> literal(l, caseSensitive)).distinct().toArray());
                }
                alts.add(new Alternative(alternatives.size() + alts.size(), id, part.pattern(), dedupe(ids), starts, startIds, caseSensitive, literalText));
            }
            alternatives.addAll(alts);
            gates.add(alts.toArray(Alternative[]::new));
            gateIds.put(m, id);
            return id;
        }


        private static List<int[]> dedupe(List<int[]> clauses) {
            List<int[]> out = new ArrayList<>();
            java.util.Set<List<Integer>> seen = new java.util.HashSet<>();
            for (int[] c : clauses) {
                int[] sorted = c.clone();
                java.util.Arrays.sort(sorted);
                if (seen.add(java.util.Arrays.stream(sorted).boxed().toList())) {
                    out.add(c);
                }
            }
            return out;
        }

        int literal(String text, boolean caseSensitive) {
            return literalIds.computeIfAbsent((caseSensitive ? "S:" : "I:") + text, k -> {
                literalText.add(text);
                literalCaseSensitive.add(caseSensitive);
                return literalText.size() - 1;
            });
        }
    }

    static boolean isSet(long[] bits, int i) {
        return (bits[i >>> 6] & (1L << i)) != 0;
    }

    static void set(long[] bits, int i) {
        bits[i >>> 6] |= 1L << i;
    }
}
