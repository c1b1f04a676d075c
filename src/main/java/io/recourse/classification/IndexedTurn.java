package io.recourse.classification;

import io.recourse.classification.Rule.Condition;
import io.recourse.classification.Rule.FieldMatch;
import io.recourse.classification.Rule.MatchType;
import io.recourse.classification.RuleIndex.CompiledCondition;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;

/**
 * One turn's signals as {@link RuleIndex} reads them: each field read, bounded to
 * {@link Classifier#MAX_FIELD_CHARS} and scanned for the catalogue's literals at most once, and
 * what a non-regex test derives from it (the lower-cased text, the parsed number) computed at most
 * once. The kinds of the signals are known from the start. Everything else is lazy: a field is
 * scanned only when a regex with literal clauses is asked about it (a regex whose alternatives
 * need no literal never scans), and whether a regex is admitted in a field is decided per regex,
 * on first use, and kept; {@link #possible} asks only the fields a condition reads.
 *
 * <p>Not thread-safe; one per thread, {@link #reset} for each {@link Classifier#classify} call
 * (only buffers and matchers are kept: nothing a turn derived is remembered across turns).
 */
final class IndexedTurn {

    private static final Field ABSENT = new Field(null);

    private final RuleIndex index;
    private List<Signal> signals;
    /** Signals of the turn ({@code signals.size()}). */
    private int n;
    /** Per signal, its {@link SignalKind} ordinal (capacity may exceed {@link #n}). */
    private int[] kindOf;
    /** Bit per {@link SignalKind} ordinal of the turn's signals. */
    private int kinds;
    /** Per signal and target id ({@code i * targets + t}): the field, once read (capacity may exceed). */
    private Field[] fields;
    private final LiteralSet.Scratch scratch = new LiteralSet.Scratch();
    /** Per alternative, the scan that last checked it (numbered; {@link #stamp} is the current one). */
    private final int[] alternativeStamp;
    private int stamp;
    /** Per alternative id, its matcher (created on first use, then reset to each text; kept across {@link #reset}s). */
    private Matcher[] matchers;

    IndexedTurn(RuleIndex index, List<Signal> signals) {
        this.index = index;
        this.alternativeStamp = new int[index.alternatives.length];
        this.kindOf = new int[0];
        this.fields = new Field[0];
        reset(signals);
    }

    /**
     * This object made the state of a new turn of {@code signals} (as a new instance would be),
     * keeping its buffers and matchers: one per thread is reused turn after turn.
     */
    IndexedTurn reset(List<Signal> signals) {
        this.signals = signals;
        this.n = signals.size();
        if (kindOf.length < n) {
            kindOf = new int[Math.max(n, 8)];
        }
        int k = 0;
        for (int i = 0; i < n; i++) {
            kindOf[i] = signals.get(i).kind().ordinal();
            k |= 1 << kindOf[i];
        }
        this.kinds = k;
        int slots = n * index.targets.length;
        if (fields.length < slots) {
            fields = new Field[Math.max(slots, 8 * index.targets.length)];
        } else {
            java.util.Arrays.fill(fields, 0, slots, null);
        }
        return this;
    }

    /** Drops the references to the turn's signals (its buffers and matchers stay). */
    void release() {
        java.util.Arrays.fill(fields, 0, n * index.targets.length, null);
        signals = List.of();
        n = 0;
    }

    /** Bit per {@link SignalKind} ordinal of the turn's signals. */
    int kinds() {
        return kinds;
    }

    /** False when no signal of the turn is of a kind {@code c} reads (nothing is scanned). */
    boolean reads(CompiledCondition c) {
        return (c.kinds & kinds) != 0;
    }

    /**
     * False when {@code c} cannot hold on any signal of the turn: no signal of a kind it reads, or
     * its regex admitted in none of the fields it reads. (True does not mean it holds.)
     */
    boolean possible(CompiledCondition c) {
        return possible(c, null);
    }

    /**
     * {@link #possible(CompiledCondition)} over the signals {@code readable} marks only
     * ({@code null}: all of them): false when {@code c} cannot hold on any of those.
     */
    boolean possible(CompiledCondition c, boolean[] readable) {
        if ((c.kinds & kinds) == 0) {
            return false;
        }
        if (c.matchGate < 0) {
            return true;
        }
        for (int i = 0; i < n; i++) {
            int kind = kindOf[i];
            if ((c.kinds & (1 << kind)) == 0 || readable != null && !readable[i]) {
                continue;
            }
            for (int k = 0; k < c.targets.length; k++) {
                if (c.targetKinds[k] == kind) {
                    Field f = field(i, c.targets[k]);
                    if (f != ABSENT && admits(f, c.matchGate)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Whether some alternative of regex {@code gate} may be admitted in {@code f} (all its literal
     * clauses present; an alternative without clauses always is): a regex with such an alternative
     * needs no scan, nor one whose literal alternatives are all {@link RegexAlternative#scanFree}
     * while the field is not scanned yet; otherwise the field's scan decides it.
     */
    private boolean admits(Field f, int gate) {
        if (index.gateOpen[gate] || f.present == null && index.gateScanFree[gate]) {
            return true; // run as it is: cheaper than scanning a field nothing else scanned (a long final chunk)
        }
        if (f.present == null) {
            scan(f);
        }
        return RuleIndex.isSet(f.admitted, gate);
    }

    /**
     * The gates (not {@link RuleIndex#gateOpen}) admitted in some field of a {@code readable}
     * signal that a gated positive test reads ({@link RuleIndex#gatedTargets}); those fields are
     * scanned. Do not modify.
     */
    long[] admittedGates(boolean[] readable) {
        long[] out = new long[index.gateWords];
        for (int i = 0; i < n; i++) {
            if (!readable[i]) {
                continue;
            }
            for (int t : index.gatedTargets[kindOf[i]]) {
                Field f = field(i, t);
                if (f != ABSENT) {
                    if (f.present == null) {
                        scan(f);
                    }
                    for (int w = 0; w < out.length; w++) {
                        out[w] |= f.admitted[w];
                    }
                }
            }
        }
        return out;
    }

    /**
     * Exactly {@code condition.hits(signals.get(i), MAX_FIELD_CHARS)} ({@link Condition#hits}):
     * any read field matches, and none matches the condition's {@code unless}.
     */
    boolean hits(CompiledCondition c, int i) {
        int kind = kindOf[i];
        if ((c.kinds & (1 << kind)) == 0) {
            return false;
        }
        boolean hit = false;
        for (int k = 0; k < c.targets.length && !hit; k++) {
            if (c.targetKinds[k] != kind) {
                continue;
            }
            Field f = field(i, c.targets[k]);
            if (f != ABSENT) {
                hit = test(c.match, c.matchGate, c.matchLower, f);
            }
        }
        if (!hit || c.unless == null) {
            return hit;
        }
        for (int k = 0; k < c.targets.length; k++) { // the unless only where the match holds: it is often the dearer test
            if (c.targetKinds[k] != kind) {
                continue;
            }
            Field f = field(i, c.targets[k]);
            if (f != ABSENT && test(c.unless, c.unlessGate, c.unlessLower, f)) {
                return false;
            }
        }
        return true;
    }

    private Field field(int i, int target) {
        int slot = i * index.targets.length + target;
        Field f = fields[slot];
        if (f == null) {
            String v = signals.get(i).field(index.targets[target].field());
            f = v == null ? ABSENT : new Field(Rule.bound(v, Classifier.MAX_FIELD_CHARS));
            fields[slot] = f;
        }
        return f;
    }

    /**
     * Exactly {@code match.test(f.value)}: a regex through its gate and admitted alternatives; a
     * number or case-insensitive literal from the field's parsed or lower-cased text, computed once.
     *
     * @param lower the literal lower-cased, for {@link MatchType#LITERAL_CI}
     */
    boolean test(FieldMatch match, int gate, String lower, Field f) {
        if (gate < 0) {
            return switch (match.type()) {
                case NUMBER -> {
                    Long n = f.number();
                    yield n != null && match.numbers().contains(n);
                }
                case LITERAL_CI -> f.lower().contains(lower);
                default -> match.test(f.value);
            };
        }
        if (!admits(f, gate)) {
            return false;
        }
        if (f.tested == null) {
            f.tested = new long[index.gateWords];
            f.held = new long[index.gateWords];
        } else if (RuleIndex.isSet(f.tested, gate)) {
            return RuleIndex.isSet(f.held, gate); // the same regex in another test (the shapes' prose detector)
        }
        boolean held = false;
        for (RegexAlternative a : index.gates[gate]) {
            if (a.trigger != null || a.readsFound && !a.anchored) { // reads the field's literals (its clauses, or where they start)
                if (f.present == null && !a.scanFree) {
                    scan(f);
                }
                if (f.present != null && a.trigger != null && !RuleIndex.isSet(f.admittedAlternatives, a.id)) {
                    continue;
                }
            }
            if (a.find(f.value, f.found, matchers())) {
                held = true;
                break;
            }
        }
        RuleIndex.set(f.tested, gate);
        if (held) {
            RuleIndex.set(f.held, gate);
        }
        return held;
    }

    private Matcher[] matchers() {
        if (matchers == null) {
            matchers = new Matcher[index.alternatives.length];
        }
        return matchers;
    }

    /**
     * The literals of {@code f} (where each first starts), and the alternatives and gates they
     * admit: only alternatives with a found literal in their trigger clause are checked, each once.
     */
    void scan(Field f) {
        long[] present = new long[index.literals.words()];
        int[] found = index.literals.scan(f.value, present, scratch);
        long[] gates = new long[index.gateWords];
        long[] alternatives = new long[index.alternativeWords];
        if (++stamp == Integer.MAX_VALUE) {
            java.util.Arrays.fill(alternativeStamp, 0);
            stamp = 1;
        }
        int now = stamp;
        for (int k = 0; k < found.length; k += 2) {
            for (int a : index.triggers[found[k]]) {
                if (alternativeStamp[a] == now) {
                    continue; // checked already, through another literal of its trigger clause
                }
                alternativeStamp[a] = now;
                if (index.admitted(a, present)) {
                    RuleIndex.set(alternatives, a);
                    RuleIndex.set(gates, index.altGate[a]);
                }
            }
        }
        f.found = found;
        f.present = present;
        f.admitted = gates;
        f.admittedAlternatives = alternatives;
    }

    /** One field of one signal in one turn: its bounded text and, once derived, its literals, lower case, number. */
    static final class Field {
        final String value;
        /** Once scanned: the literals present (bit per id) and where each first starts ({@link LiteralSet#scan}). */
        long[] present;
        int[] found;
        /** Once scanned: the gates with an alternative whose clauses all hold, and those alternatives. */
        long[] admitted;
        long[] admittedAlternatives;
        /** Gates run on this field so far, and those that held (allocated on the first run). */
        long[] tested;
        long[] held;
        private String lower;
        private boolean parsed;
        private Long number;

        Field(String value) {
            this.value = value;
        }

        /** {@code value.toLowerCase(Locale.ROOT)}, once. */
        String lower() {
            if (lower == null) {
                lower = value.toLowerCase(Locale.ROOT);
            }
            return lower;
        }

        /** The value as a number test reads it ({@link FieldMatch#test}: trimmed, {@code Long}), or {@code null}; once. */
        Long number() {
            if (!parsed) {
                number = FieldMatch.parseLong(value.trim());
                parsed = true;
            }
            return number;
        }
    }
}
