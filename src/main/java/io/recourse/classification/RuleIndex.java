package io.recourse.classification;

import io.recourse.classification.Catalogue.Marker;
import io.recourse.classification.Rule.Condition;
import io.recourse.classification.Rule.FieldMatch;
import io.recourse.classification.Rule.MatchType;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The catalogue compiled once, at load, for {@link Classifier#classify} (a target of
 * 500,000 signals per second on one core). It decides exactly what the rules decide —
 * {@code ClassifierFastPathProperties} checks it against the sequential evaluation — but reads
 * each field of a turn's signals once:
 *
 * <ul>
 *   <li>every catalogue regex (each of a {@code regex} list's) is split into its top-level
 *       alternatives ({@link RegexPrefilter});
 *       each alternative gets clauses of literals every match contains ({@link RequiredLiterals},
 *       and its leading literals: one of them starts every match); all go into one
 *       {@link LiteralSet} for the whole catalogue;</li>
 *   <li>a field's text (bounded to {@link Classifier#MAX_FIELD_CHARS}) is scanned at most once per
 *       turn, when a regex with literal clauses is first asked about it: that gives the literals
 *       present and, through them, whether a regex has an alternative whose clauses all hold
 *       ("admitted"; decided per regex and field on first use);</li>
 *   <li>a regex test on the field is then {@code false} without running anything unless the
 *       regex is admitted, and runs only its admitted alternatives — one anchored with
 *       {@code ^} as {@code lookingAt()}, one with leading literals only where they occur
 *       ({@code lookingAt()} from each, with transparent bounds), others as {@code find()};</li>
 *   <li>a rule whose positive condition reads no kind of the turn, or whose regex none of the
 *       (readable) fields it reads admits, is passed over ({@link IndexedTurn#possible}).</li>
 * </ul>
 *
 * Nothing is remembered across turns: per turn, an {@link IndexedTurn} holds the fields read so far.
 */
public final class RuleIndex {

    final LiteralSet literals;
    final RegexAlternative[] alternatives;
    /** Words of a bit set over the gate ids. */
    final int gateWords;
    /** Per gate: whether an alternative has no literal clause (always admitted, nothing to scan). */
    final boolean[] gateOpen;
    /** Per gate: every alternative with literal clauses is {@link RegexAlternative#scanFree}. */
    final boolean[] gateScanFree;
    /** Literal id → the alternatives whose trigger clause it is in (one of them is needed to admit the alternative). */
    final int[][] triggers;
    /**
     * Every alternative's literal clauses but its trigger clause, flat (read in the scan, so kept
     * together; the scan checks an alternative only for a found literal of its trigger clause, so
     * that clause holds): alternative {@code a}'s clauses are {@code altClauseFrom[a] .. altClauseFrom[a + 1]}; clause {@code c}
     * holds when one of {@code present[clauseWord[w]] & clauseBits[w]}, {@code w} in
     * {@code clauseWordFrom[c] .. clauseWordFrom[c + 1]}, is non-zero. {@code altGate[a]}: its gate.
     */
    private final int[] altClauseFrom;
    private final int[] clauseWordFrom;
    private final int[] clauseWord;
    private final long[] clauseBits;
    final int[] altGate;
    /** Words of a bit set over the alternative ids. */
    final int alternativeWords;
    /** Gate id (one per distinct catalogue regex test: its patterns and flags) → its alternatives (each pattern's, in order). */
    final RegexAlternative[][] gates;
    private final Map<FieldMatch, Integer> gateIds;
    /** Distinct fields the catalogue reads; a target id is an index. */
    final Rule.Target[] targets;
    /** Bit set of every rule id. */
    private final long[] allRules;
    /** Per scope id, the rules with that agent scope. */
    private final long[][] rulesByScope;
    /**
     * Per {@link SignalKind} ordinal, the targets that a positive condition with a gate not
     * {@link #gateOpen} reads: the fields whose literals decide which rules can match.
     */
    final int[][] gatedTargets;
    /** Gates not {@link #gateOpen} that a rule's positive condition tests, and per such gate those rules. */
    private final int[] filterGates;
    private final long[][] rulesByGate;
    /** Distinct kind masks of the rules' positive conditions, and per mask the rules with such a condition. */
    private final int[] kindMasks;
    private final long[][] rulesByKindMask;
    /** Per agent type as the evidence carries it, its {@link #agentScopes}; bounded. */
    private final java.util.concurrent.ConcurrentHashMap<String, AgentScopes> scopeCache = new java.util.concurrent.ConcurrentHashMap<>();
    private final AgentScopes noAgentScopes;
    /** Per thread, the turn state reused turn after turn (buffers and matchers). */
    private final ThreadLocal<IndexedTurn> turns = ThreadLocal.withInitial(() -> new IndexedTurn(this, List.of()));
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
        this.alternatives = b.alternatives.toArray(RegexAlternative[]::new);
        this.gates = b.gates.toArray(RegexAlternative[][]::new);
        this.gateIds = b.gateIds;
        this.targets = b.targets.toArray(Rule.Target[]::new);
        this.gateWords = (gates.length + 63) >>> 6;
        this.gateOpen = new boolean[gates.length];
        this.gateScanFree = new boolean[gates.length];
        java.util.Arrays.fill(gateScanFree, true);
        for (RegexAlternative a : alternatives) {
            gateOpen[a.gate] |= a.trigger == null;
            gateScanFree[a.gate] &= a.trigger == null || a.scanFree;
        }
        List<List<Integer>> byLiteral = new ArrayList<>();
        for (int i = 0; i < literals.size(); i++) {
            byLiteral.add(new ArrayList<>());
        }
        for (RegexAlternative a : alternatives) {
            for (int l : a.trigger == null ? new int[0] : a.trigger) {
                if (!byLiteral.get(l).contains(a.id)) {
                    byLiteral.get(l).add(a.id);
                }
            }
        }
        this.triggers = byLiteral.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
        this.altGate = new int[alternatives.length];
        this.altClauseFrom = new int[alternatives.length + 1];
        List<Integer> wordFrom = new ArrayList<>(List.of(0));
        List<Integer> word = new ArrayList<>();
        List<Long> bits = new ArrayList<>();
        for (RegexAlternative a : alternatives) {
            altGate[a.id] = a.gate;
            for (int[] clause : a.clauses) {
                if (clause == a.trigger) {
                    continue; // a found literal of it is what triggers the check: it holds then
                }
                java.util.TreeMap<Integer, Long> words = new java.util.TreeMap<>();
                for (int l : clause) {
                    words.merge(l >>> 6, 1L << l, (x, y) -> x | y);
                }
                word.addAll(words.keySet());
                bits.addAll(words.values());
                wordFrom.add(word.size());
            }
            altClauseFrom[a.id + 1] = wordFrom.size() - 1;
        }
        this.clauseWordFrom = wordFrom.stream().mapToInt(Integer::intValue).toArray();
        this.clauseWord = word.stream().mapToInt(Integer::intValue).toArray();
        this.clauseBits = bits.stream().mapToLong(Long::longValue).toArray();
        this.alternativeWords = (alternatives.length + 63) >>> 6;
        int words = (this.rules.length + 63) >>> 6;
        this.allRules = new long[words];
        this.rulesByScope = new long[scopes.length][words];
        List<Integer> masks = new ArrayList<>();
        List<long[]> byMask = new ArrayList<>();
        for (int r = 0; r < this.rules.length; r++) {
            set(allRules, r);
            set(rulesByScope[this.rules[r].scope], r);
            for (CompiledCondition c : this.rules[r].positive) {
                int m = masks.indexOf(c.kinds);
                if (m < 0) {
                    masks.add(c.kinds);
                    byMask.add(new long[words]);
                    m = masks.size() - 1;
                }
                set(byMask.get(m), r);
            }
        }
        java.util.TreeMap<Integer, long[]> byGate = new java.util.TreeMap<>();
        java.util.Set<Integer> gated = new java.util.TreeSet<>();
        for (int r = 0; r < this.rules.length; r++) {
            for (CompiledCondition c : this.rules[r].positive) {
                if (c.matchGate >= 0 && !gateOpen[c.matchGate]) {
                    set(byGate.computeIfAbsent(c.matchGate, g -> new long[words]), r);
                    for (int t : c.targets) {
                        gated.add(t);
                    }
                }
            }
        }
        this.filterGates = byGate.keySet().stream().mapToInt(Integer::intValue).toArray();
        this.rulesByGate = byGate.values().toArray(long[][]::new);
        this.gatedTargets = new int[SignalKind.values().length][];
        for (SignalKind k : SignalKind.values()) {
            gatedTargets[k.ordinal()] = gated.stream().filter(t -> targets[t].kind() == k).mapToInt(Integer::intValue).toArray();
        }
        this.kindMasks = masks.stream().mapToInt(Integer::intValue).toArray();
        this.rulesByKindMask = byMask.toArray(long[][]::new);
        this.noAgentScopes = computeScopes(null);
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
        IndexedTurn turn = new IndexedTurn(this, List.of());
        IndexedTurn.Field f = new IndexedTurn.Field(Rule.bound(text, Classifier.MAX_FIELD_CHARS));
        turn.scan(f);
        return turn.test(match, gate, null, f);
    }

    /** Literals in the automaton, regex alternatives, alternatives without a literal (for tests and reports). */
    String stats() {
        int bare = 0;
        for (RegexAlternative a : alternatives) {
            bare += a.trigger == null ? 1 : 0;
        }
        return literals.size() + " literals, " + alternatives.length + " alternatives, " + bare + " without literals, "
                + targets.length + " fields";
    }

    /** Agent types whose scopes are remembered; others are decided on each call. */
    private static final int SCOPE_CACHE_ENTRIES = 1024;

    /**
     * Per scope id ({@link CompiledRule#scope}, {@link CompiledMarker#scope}): whether an agent of
     * type {@code agentType} (as the evidence carries it, or {@code null}) is in it — exactly
     * {@link Rule#appliesToAgent}. Decided once per distinct agent type (up to
     * {@value #SCOPE_CACHE_ENTRIES} remembered); do not modify the array.
     */
    boolean[] agentScopes(String agentType) {
        return scopesOf(agentType).inScope;
    }

    /** {@link #agentScopes} and the rules in those scopes, decided once per distinct agent type (as there). */
    AgentScopes scopesOf(String agentType) {
        if (agentType == null) {
            return noAgentScopes;
        }
        AgentScopes known = scopeCache.get(agentType);
        if (known != null) {
            return known;
        }
        AgentScopes out = computeScopes(agentType.toLowerCase(java.util.Locale.ROOT));
        if (scopeCache.size() < SCOPE_CACHE_ENTRIES) {
            scopeCache.putIfAbsent(agentType, out);
        }
        return out;
    }

    /** {@link #scopesOf} an agent type already lower case. */
    private AgentScopes computeScopes(String agent) {
        boolean[] out = new boolean[scopes.length];
        long[] rulesIn = allRules.clone();
        for (int k = 0; k < scopes.length; k++) {
            out[k] = inScope(scopes[k], agent);
            if (!out[k]) {
                andNot(rulesIn, rulesByScope[k]);
            }
        }
        return new AgentScopes(out, rulesIn);
    }

    /** Per scope id whether an agent type is in it; and the rules (bit per rule id) whose scope it is in. Do not modify. */
    static final class AgentScopes {
        final boolean[] inScope;
        final long[] rules;

        AgentScopes(boolean[] inScope, long[] rules) {
            this.inScope = inScope;
            this.rules = rules;
        }
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

    /** Per-turn state: the signals and the fields read so far (a new one). */
    IndexedTurn turn(List<Signal> signals) {
        return new IndexedTurn(this, signals);
    }

    /**
     * {@link #turn}, reusing this thread's turn state (its buffers and matchers): valid until the
     * thread's next call; {@link IndexedTurn#release} it when done.
     */
    IndexedTurn reusedTurn(List<Signal> signals) {
        return turns.get().reset(signals);
    }

    /**
     * The rules (ids = positions in {@link #rules()}, highest priority first) that can match
     * {@code turn} for an agent in {@code agentScopes}, as a bit set: every rule except those out
     * of the agent's scope, those with a positive condition that reads no kind of the turn's
     * signals, and those with a positive regex test that no {@code readable} signal's field admits
     * ({@link IndexedTurn#admittedGates}: the fields such tests read are scanned once). The provider
     * scope is left to the caller.
     */
    long[] candidates(IndexedTurn turn, AgentScopes agentScopes, boolean[] readable) {
        long[] out = agentScopes.rules.clone();
        int kinds = turn.kinds();
        for (int k = 0; k < kindMasks.length; k++) {
            if ((kindMasks[k] & kinds) == 0) {
                andNot(out, rulesByKindMask[k]);
            }
        }
        if (isEmpty(out)) {
            return out;
        }
        long[] admitted = turn.admittedGates(readable);
        for (int k = 0; k < filterGates.length; k++) {
            if (!isSet(admitted, filterGates[k])) {
                andNot(out, rulesByGate[k]);
            }
        }
        return out;
    }

    /**
     * Whether alternative {@code a}, a literal of whose {@link RegexAlternative#trigger} clause is in
     * {@code present} (bit per literal id), is admitted: every other literal clause has a literal in
     * {@code present}. (The trigger clause is not re-read.)
     */
    boolean admitted(int a, long[] present) {
        for (int c = altClauseFrom[a], end = altClauseFrom[a + 1]; c < end; c++) {
            int w = clauseWordFrom[c];
            int last = clauseWordFrom[c + 1];
            while (w < last && (present[clauseWord[w]] & clauseBits[w]) == 0) {
                w++;
            }
            if (w == last) {
                return false;
            }
        }
        return true;
    }

    private static void andNot(long[] bits, long[] clear) {
        for (int w = 0; w < bits.length; w++) {
            bits[w] &= ~clear[w];
        }
    }

    static boolean isEmpty(long[] bits) {
        for (long w : bits) {
            if (w != 0) {
                return false;
            }
        }
        return true;
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
        /** Per target, its {@link SignalKind} ordinal. */
        final int[] targetKinds;
        final FieldMatch match;
        final int matchGate;
        /** The match's literal lower-cased ({@link MatchType#LITERAL_CI}), else {@code null}. */
        final String matchLower;
        final FieldMatch unless;
        final int unlessGate;
        final String unlessLower;

        CompiledCondition(int kinds, int[] targets, int[] targetKinds, FieldMatch match, int matchGate,
                          FieldMatch unless, int unlessGate) {
            this.kinds = kinds;
            this.targets = targets;
            this.targetKinds = targetKinds;
            this.match = match;
            this.matchGate = matchGate;
            this.matchLower = lower(match);
            this.unless = unless;
            this.unlessGate = unlessGate;
            this.unlessLower = lower(unless);
        }

        private static String lower(FieldMatch m) {
            return m != null && m.type() == MatchType.LITERAL_CI ? m.literal().toLowerCase(java.util.Locale.ROOT) : null;
        }
    }

    /** Collects literals, alternatives, gates and targets while conditions compile. */
    private static final class Builder {
        final List<String> literalText = new ArrayList<>();
        final List<Boolean> literalCaseSensitive = new ArrayList<>();
        final Map<String, Integer> literalIds = new HashMap<>();
        final List<RegexAlternative> alternatives = new ArrayList<>();
        final List<RegexAlternative[]> gates = new ArrayList<>();
        final Map<FieldMatch, Integer> gateIds = new IdentityHashMap<>();
        /** The same regexes (patterns and flags, in order) in several tests are one gate: compiled once, its result kept per field. */
        final Map<List<String>, Integer> gateByRegex = new HashMap<>();
        final List<Rule.Target> targets = new ArrayList<>();
        final Map<Rule.Target, Integer> targetIds = new HashMap<>();
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
            int[] kindOf = new int[ids.length];
            for (int k = 0; k < ids.length; k++) {
                Rule.Target t = c.targets().get(k);
                kinds |= 1 << t.kind().ordinal();
                ids[k] = targetIds.computeIfAbsent(t, x -> {
                    targets.add(x);
                    return targets.size() - 1;
                });
                kindOf[k] = t.kind().ordinal();
            }
            int matchGate = gate(c.match());
            int unlessGate = gate(c.unless());
            return new CompiledCondition(kinds, ids, kindOf, c.match(), matchGate, c.unless(), unlessGate);
        }

        /**
         * The gate id of a regex test; -1 for other tests (they run as they are). A test of several
         * patterns (a {@code regex} or {@code unless} list) is one gate whose alternatives are each
         * pattern's own, in order, exactly as the patterns' gates would have them: the gate holds
         * when one of them does, as {@code find()} of one of the patterns.
         */
        int gate(FieldMatch m) {
            if (m == null || m.type() != MatchType.REGEX) {
                return -1;
            }
            Integer known = gateIds.get(m);
            if (known != null) {
                return known;
            }
            List<String> key = m.patterns().stream().map(p -> p.flags() + "/" + p.pattern()).toList();
            known = gateByRegex.get(key);
            if (known != null) {
                gateIds.put(m, known);
                return known;
            }
            int id = gates.size();
            gateByRegex.put(key, id);
            List<RegexAlternative> alts = new ArrayList<>();
            for (Pattern pattern : m.patterns()) {
                alts.addAll(alternatives(RegexPrefilter.of(pattern), id, alternatives.size() + alts.size()));
            }
            alternatives.addAll(alts);
            gates.add(alts.toArray(RegexAlternative[]::new));
            gateIds.put(m, id);
            return id;
        }

        /** The alternatives of one pattern's prefilter for gate {@code gate}, numbered from {@code firstId}. */
        private List<RegexAlternative> alternatives(RegexPrefilter p, int gate, int firstId) {
            boolean caseSensitive = !p.ignoreCase();
            List<RegexAlternative> alts = new ArrayList<>();
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
                alts.add(new RegexAlternative(firstId + alts.size(), gate, part.pattern(), dedupe(ids), starts, startIds, caseSensitive, literalText, part.window()));
            }
            return alts;
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
