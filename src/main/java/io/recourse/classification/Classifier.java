package io.recourse.classification;

import io.recourse.classification.Catalogue.Fallback;
import io.recourse.classification.Catalogue.Marker;
import io.recourse.classification.Explanation.Trial;
import io.recourse.classification.Rule.Condition;
import io.recourse.classification.hints.HintValidator;
import io.recourse.evidence.Evidence;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Handling;
import io.recourse.taxonomy.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The catalogue classifier (DESIGN §5): evidence of one closed turn → at most one
 * {@link Classification}. Pure and deterministic; no agent-specific Java decides anything here —
 * every decision is a rule of the {@link Catalogue}.
 *
 * <ul>
 *   <li><b>Final chunks</b> are read only when a catalogue surfaced-failure shape marks them (an
 *       anchored {@code API Error: <status>} message, Goose's error preface, Codex's terminal error
 *       sentences); other assistant text is prose and never read.</li>
 *   <li><b>Completed turns</b> ({@link Evidence#stopReason()} non-null): empty unless the winning
 *       match rests on a surfaced failure (a marked signal) and on a foreground signal; a foreground
 *       surfaced failure no rule names fails the turn with the post-start fallback (the chunk
 *       <em>is</em> an error in the agent's format; completing it would be silent). Errors the
 *       agent retried past (HTTP, stderr, reconnect metadata) do not fail a turn it completed. A
 *       {@code cancelled} stop is the user's decision and is never a failure.</li>
 *   <li><b>Failed turns</b> (no stop reason: error, exit, launch failure, {@code turn_abandoned}):
 *       always present — the best rule, else the pre-start ({@code unknown_provider_error}) or
 *       post-start ({@code agent_runtime_error}) fallback with confidence {@code low}.</li>
 *   <li><b>Choice</b>: a foreground match beats a background one; then the highest priority.</li>
 *   <li><b>Background</b>: a match resting only on background signals is at most {@code medium}.</li>
 *   <li><b>Bounded input</b>: at most {@value #MAX_SIGNALS} signals (the latest) and
 *       {@value #MAX_FIELD_CHARS} characters per field are read; catalogue regexes are bounded.</li>
 *   <li><b>Hints</b>: only for {@code rate_limited} ({@code retry_after}) and {@code quota_limited}
 *       ({@code reset_at}); the winning rule's extractors are applied to the turn's signals, latest
 *       first, and the first hint strictly after the terminal frame and within the horizon
 *       (default 7 days) is kept.</li>
 * </ul>
 */
public final class Classifier implements TurnClassifier {

    /** Characters of a field a rule reads (the evidence bound of DESIGN §4, 4 KiB). */
    public static final int MAX_FIELD_CHARS = 4096;
    /** Signals of a turn a rule reads (twice the evidence bound of DESIGN §4). */
    public static final int MAX_SIGNALS = 64;

    private final Catalogue catalogue;
    private final Duration horizon;

    /** A classifier over {@code catalogue} with the default 7-day hint horizon. */
    public Classifier(Catalogue catalogue) {
        this(catalogue, HintValidator.DEFAULT_HORIZON);
    }

    /** A classifier over {@code catalogue}; hints more than {@code horizon} after the terminal frame are dropped. */
    public Classifier(Catalogue catalogue, Duration horizon) {
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
        this.horizon = Objects.requireNonNull(horizon, "horizon");
    }

    /** A classifier over the shipped catalogue ({@link Catalogue#loadDefault()}). */
    public static Classifier withDefaultCatalogue() {
        return new Classifier(Catalogue.loadDefault());
    }

    /** The catalogue it applies. */
    public Catalogue catalogue() {
        return catalogue;
    }

    /**
     * Classifies {@code evidence} (the rules of the class doc). Reads each field of the turn's
     * signals once through the catalogue's {@link RuleIndex} and stops at the first foreground
     * match; it answers exactly as {@link #explain(Evidence)}'s classification.
     */
    @Override
    public Optional<Classification> classify(Evidence evidence) {
        List<Signal> signals = latest(evidence.signals());
        String stop = evidence.stopReason();
        boolean completed = stop != null;
        if ("cancelled".equals(stop)) {
            return Optional.empty();
        }
        RuleIndex index = catalogue.index();
        IndexedTurn turn = index.reusedTurn(signals);
        try {
            return classify(evidence, signals, completed, index, turn);
        } finally {
            turn.release();
        }
    }

    private Optional<Classification> classify(Evidence evidence, List<Signal> signals, boolean completed, RuleIndex index,
                                              IndexedTurn turn) {
        int n = signals.size();
        RuleIndex.AgentScopes agentScopes = index.scopesOf(evidence.agentType());
        boolean[] scopes = agentScopes.inScope;
        boolean[] surfaced = marks(index.surfacedShapes(), scopes, turn, n, false);
        if (completed && !any(surfaced)) {
            return Optional.empty(); // a completed turn fails only on a match resting on a surfaced failure
        }
        boolean[] background = marks(index.backgroundMarkers(), scopes, turn, n, true);
        boolean[] preStart = new boolean[n];
        boolean[] readable = new boolean[n];
        for (int i = 0; i < n; i++) {
            Signal s = signals.get(i);
            preStart[i] = s.phase() != null ? s.phase().preStart() : evidence.launch();
            readable[i] = s.kind() != SignalKind.FINAL_CHUNK || surfaced[i];
        }
        Rule winner = null;
        Rule backgroundWinner = null;
        long[] candidates = index.candidates(turn, agentScopes, readable); // in scope, reading kinds of the turn, regexes admitted
        RuleIndex.CompiledRule[] rules = index.rules();
        String provider = null;
        search:
        for (int w = 0; w < candidates.length; w++) {
            for (long bits = candidates[w]; bits != 0; bits &= bits - 1) {
                RuleIndex.CompiledRule cr = rules[(w << 6) + Long.numberOfTrailingZeros(bits)];
                Rule rule = cr.rule;
                if (!rule.providers().isEmpty()) {
                    if (provider == null && evidence.providerId() != null) {
                        provider = evidence.providerId().toLowerCase(Locale.ROOT);
                    }
                    if (provider == null || !rule.providers().contains(provider)) {
                        continue;
                    }
                }
                int m = match(cr, turn, preStart, readable, background, surfaced, completed);
                if (m == FOREGROUND) {
                    winner = rule; // the highest-priority foreground match: nothing after it can win
                    break search;
                }
                if (m == BACKGROUND && backgroundWinner == null) {
                    backgroundWinner = rule;
                }
            }
        }
        if (winner != null) {
            return Optional.of(classification(winner, false, evidence, signals));
        }
        if (backgroundWinner != null && !completed) {
            return Optional.of(classification(backgroundWinner, true, evidence, signals));
        }
        if (completed) {
            return surfacedForeground(surfaced, background) ? Optional.of(fallback(evidence, signals)) : Optional.empty();
        }
        return Optional.of(fallback(evidence, signals));
    }

    /**
     * True when a foreground signal is a surfaced failure: the agent's final chunk <em>is</em> an
     * error in its known format, so the turn failed even when no rule names the cause.
     */
    private static boolean surfacedForeground(boolean[] surfaced, boolean[] background) {
        for (int i = 0; i < surfaced.length; i++) {
            if (surfaced[i] && !background[i]) {
                return true;
            }
        }
        return false;
    }

    /** Classifies {@code evidence} and reports every rule tried and why the winner won. */
    public Explanation explain(Evidence evidence) {
        return run(evidence, true, false);
    }

    /**
     * The reference for {@link #classify}: every rule tried in turn on the signals as they are,
     * every regex run whole ({@code Pattern.matcher(text).find()}). Slow; for tests.
     */
    Optional<Classification> classifySequentially(Evidence evidence) {
        return run(evidence, false, true).classification();
    }

    private static final int NO_MATCH = 0;
    private static final int FOREGROUND = 1;
    private static final int BACKGROUND = 2;

    /**
     * {@link #evaluate} on the compiled rule, a candidate of {@link RuleIndex#candidates} (its
     * positive conditions possible): {@link #NO_MATCH}, {@link #FOREGROUND} or {@link #BACKGROUND}.
     */
    private static int match(RuleIndex.CompiledRule cr, IndexedTurn turn, boolean[] preStart, boolean[] readable,
                             boolean[] background, boolean[] surfaced, boolean completed) {
        Rule rule = cr.rule;
        int n = preStart.length;
        Rule.PhaseScope phase = rule.phase();
        for (RuleIndex.CompiledCondition c : cr.negated) {
            for (int i = 0; i < n; i++) {
                if (readable[i] && phase.admits(preStart[i]) && turn.hits(c, i)) {
                    return NO_MATCH;
                }
            }
        }
        boolean sequence = rule.sequence();
        boolean allBackground = true;
        boolean anySurfaced = false;
        int from = 0;
        for (RuleIndex.CompiledCondition c : cr.positive) {
            int chosen = -1;
            int best = -1;
            for (int i = sequence ? from : 0; i < n; i++) {
                if (!readable[i] || !phase.admits(preStart[i]) || !turn.hits(c, i)) {
                    continue;
                }
                int score = score(completed, surfaced[i], background[i]);
                if (score > best) {
                    best = score;
                    chosen = i;
                }
                if (sequence || best == 3) {
                    break; // the first hit in order; or no later signal can score higher
                }
            }
            if (chosen < 0) {
                return NO_MATCH;
            }
            from = chosen + 1;
            allBackground &= background[chosen];
            anySurfaced |= surfaced[chosen];
        }
        if (completed && !anySurfaced) {
            return NO_MATCH;
        }
        return rule.background() || allBackground ? BACKGROUND : FOREGROUND;
    }

    /**
     * {@code gated}: skip markers {@link IndexedTurn#possible} rules out (which scans every field
     * once); otherwise only markers that read no kind of the turn are skipped (nothing scanned).
     */
    private static boolean[] marks(RuleIndex.CompiledMarker[] markers, boolean[] scopes, IndexedTurn turn, int n,
                                   boolean gated) {
        boolean[] out = new boolean[n];
        for (RuleIndex.CompiledMarker m : markers) {
            if (!scopes[m.scope] || !turn.reads(m.condition) || gated && !turn.possible(m.condition)) {
                continue;
            }
            for (int i = 0; i < n; i++) {
                if (!out[i] && turn.hits(m.condition, i)) {
                    out[i] = true;
                }
            }
        }
        return out;
    }

    /**
     * How well signal evidence serves a condition (0–3, higher wins; both the indexed and the
     * sequential path use it): completed turns need the surfaced failure first, failed turns prefer
     * foreground evidence first.
     */
    private static int score(boolean completed, boolean surfaced, boolean background) {
        return completed ? (surfaced ? 2 : 0) + (background ? 0 : 1)
                         : (background ? 0 : 2) + (surfaced ? 1 : 0);
    }

    private static boolean any(boolean[] flags) {
        for (boolean f : flags) {
            if (f) {
                return true;
            }
        }
        return false;
    }

    private static List<Signal> latest(List<Signal> signals) {
        return signals.size() > MAX_SIGNALS ? signals.subList(signals.size() - MAX_SIGNALS, signals.size()) : signals;
    }

    /** The classification of a winning rule; {@code background}: it rests only on background signals. */
    private Classification classification(Rule winner, boolean background, Evidence evidence, List<Signal> signals) {
        Confidence confidence = background ? winner.confidence().atMost(Confidence.MEDIUM) : winner.confidence();
        Instant hint = hint(winner, evidence, signals);
        return new Classification(winner.code(), confidence, winner.id(), catalogue.version(),
                winner.scope(), winner.code().handling() == Handling.THROTTLE ? hint : null,
                winner.code().handling() == Handling.RENEWABLE_QUOTA ? hint : null, background);
    }

    /** The pre-start or post-start fallback of a failed turn no rule matched. */
    private Classification fallback(Evidence evidence, List<Signal> signals) {
        Fallback fb = evidence.launch() || allPreStart(signals) ? catalogue.preStartFallback() : catalogue.postStartFallback();
        return new Classification(fb.code(), Confidence.LOW, fb.ruleId(), catalogue.version(), Scope.PROVIDER, null, null,
                false);
    }

    /**
     * {@code detailed}: build the human-readable trial details (explain) or skip them;
     * {@code plainRegex}: run regexes without {@link RegexPrefilter} (the test reference).
     */
    private Explanation run(Evidence evidence, boolean detailed, boolean plainRegex) {
        List<Signal> signals = latest(evidence.signals());
        String stop = evidence.stopReason();
        boolean completed = stop != null;
        if ("cancelled".equals(stop)) {
            return new Explanation(catalogue.version(), true, List.of(), Optional.empty(),
                    "the turn was cancelled: a user decision, never a failure", List.of(), false);
        }
        boolean[] background = marks(catalogue.backgroundMarkers(), evidence, signals, plainRegex);
        boolean[] surfaced = marks(catalogue.surfacedShapes(), evidence, signals, plainRegex);
        List<Trial> trials = new ArrayList<>();
        Rule winner = null;
        Trial winningTrial = null;
        Rule backgroundWinner = null;
        Trial backgroundTrial = null;
        for (Rule rule : catalogue.rules()) {
            Trial t = evaluate(rule, evidence, signals, background, surfaced, completed, detailed, plainRegex);
            trials.add(t);
            if (!t.matched()) {
                continue;
            }
            if (!t.background() && winner == null) {
                winner = rule;
                winningTrial = t;
            } else if (t.background() && backgroundWinner == null) {
                backgroundWinner = rule;
                backgroundTrial = t;
            }
        }
        if (winner == null && backgroundWinner != null && !completed) {
            winner = backgroundWinner;
            winningTrial = backgroundTrial;
        }
        if (winner != null) {
            boolean bg = winningTrial.background();
            Classification c = classification(winner, bg, evidence, signals);
            String verdict = "rule " + winner.id() + " (priority " + winner.priority() + ") is the "
                    + (bg ? "highest-priority match; it rests only on background signals, so confidence is at most medium"
                          : "highest-priority foreground match")
                    + (completed ? "; it rests on a surfaced failure, so the completed turn failed" : "");
            boolean onFinal = false;
            for (int i = 0; i < signals.size(); i++) {
                Signal s = signals.get(i);
                if (s.kind() == SignalKind.FINAL_CHUNK && (surfaced[i] || winningTrial.signalSeqs().contains(s.seq()))) {
                    onFinal = true;
                }
            }
            return new Explanation(catalogue.version(), completed, trials, Optional.of(c), verdict,
                    winningTrial.signalSeqs(), onFinal);
        }
        if (completed && surfacedForeground(surfaced, background)) {
            Classification c = fallback(evidence, signals);
            return new Explanation(catalogue.version(), true, trials, Optional.of(c),
                    "the turn completed (" + stop + "), but its final chunk is a surfaced failure no rule names: post-start fallback "
                            + c.ruleId(), List.of(), true);
        }
        if (completed) {
            String why = backgroundWinner != null
                    ? "the turn completed (" + stop + "); only background rule " + backgroundWinner.id()
                      + " matched, and a background request never fails a completed turn"
                    : "the turn completed (" + stop + ") and no rule matched a surfaced failure";
            return new Explanation(catalogue.version(), true, trials, Optional.empty(), why, List.of(), false);
        }
        boolean preStart = evidence.launch() || allPreStart(signals);
        Classification c = fallback(evidence, signals);
        return new Explanation(catalogue.version(), false, trials, Optional.of(c),
                "no rule matched a failed turn: " + (preStart ? "pre-start" : "post-start") + " fallback " + c.ruleId(),
                List.of(), false);
    }

    private static boolean[] marks(List<Marker> markers, Evidence evidence, List<Signal> signals, boolean plainRegex) {
        boolean[] out = new boolean[signals.size()];
        for (int i = 0; i < signals.size(); i++) {
            for (Marker m : markers) {
                if (m.marks(evidence.agentType(), signals.get(i), MAX_FIELD_CHARS, plainRegex)) {
                    out[i] = true;
                    break;
                }
            }
        }
        return out;
    }

    private static boolean allPreStart(List<Signal> signals) {
        boolean any = false;
        for (Signal s : signals) {
            if (s.phase() == null) {
                continue;
            }
            if (!s.phase().preStart()) {
                return false;
            }
            any = true;
        }
        return any;
    }

    private Trial evaluate(Rule rule, Evidence e, List<Signal> signals, boolean[] background, boolean[] surfaced,
                           boolean completed, boolean detailed, boolean plainRegex) {
        if (!rule.appliesToAgent(e.agentType())) {
            return miss(rule, detailed ? "agent " + e.agentType() + " is out of scope " + rule.agents() : "");
        }
        if (!rule.appliesToProvider(e.providerId())) {
            return miss(rule, detailed ? "provider " + e.providerId() + " is out of scope " + rule.providers() : "");
        }
        boolean[] eligible = new boolean[signals.size()];
        for (int i = 0; i < signals.size(); i++) {
            Signal s = signals.get(i);
            boolean pre = s.phase() != null ? s.phase().preStart() : e.launch();
            eligible[i] = rule.phase().admits(pre) && (s.kind() != SignalKind.FINAL_CHUNK || surfaced[i]);
        }
        for (Condition c : rule.conditions()) {
            if (!c.negate()) {
                continue;
            }
            for (int i = 0; i < signals.size(); i++) {
                if (eligible[i] && c.hits(signals.get(i), MAX_FIELD_CHARS, plainRegex)) {
                    return miss(rule, detailed ? "excluded: " + c.describe() + " holds on seq " + signals.get(i).seq() : "");
                }
            }
        }
        List<Long> seqs = new ArrayList<>();
        boolean allBackground = true;
        boolean anySurfaced = false;
        int from = 0;
        for (Condition c : rule.conditions()) {
            if (c.negate()) {
                continue;
            }
            int chosen = -1;
            int best = -1;
            for (int i = rule.sequence() ? from : 0; i < signals.size(); i++) {
                if (!eligible[i] || !c.hits(signals.get(i), MAX_FIELD_CHARS, plainRegex)) {
                    continue;
                }
                int score = score(completed, surfaced[i], background[i]);
                if (score > best) {
                    best = score;
                    chosen = i;
                }
                if (rule.sequence()) {
                    break;
                }
            }
            if (chosen < 0) {
                return miss(rule, detailed ? "no " + (rule.sequence() && from > 0 ? "later " : "") + "signal where " + c.describe() : "");
            }
            from = chosen + 1;
            seqs.add(signals.get(chosen).seq());
            allBackground &= background[chosen];
            anySurfaced |= surfaced[chosen];
        }
        if (completed && !anySurfaced) {
            return miss(rule, detailed ? "conditions hold on seq " + seqs
                    + ", but the turn completed and none of them is a surfaced failure" : "");
        }
        boolean bg = rule.background() || allBackground;
        return new Trial(rule.id(), rule.priority(), true, bg, seqs,
                detailed ? "matched on seq " + seqs + (bg ? " (background)" : "") : "");
    }

    private static Trial miss(Rule rule, String why) {
        return new Trial(rule.id(), rule.priority(), false, false, List.of(), why);
    }

    private Instant hint(Rule rule, Evidence e, List<Signal> signals) {
        if (rule.hints().isEmpty() || !Catalogue.takesHints(rule.code())) {
            return null;
        }
        Instant terminal = e.terminalAt();
        if (terminal == null) {
            terminal = signals.isEmpty() ? null : signals.get(signals.size() - 1).occurredAt();
        }
        if (terminal == null) {
            return null;
        }
        for (int i = signals.size() - 1; i >= 0; i--) {
            for (String name : rule.hints()) {
                for (Instant candidate : HintExtractors.extract(name, signals.get(i), MAX_FIELD_CHARS)) {
                    Optional<Instant> valid = HintValidator.validate(candidate, terminal, horizon);
                    if (valid.isPresent()) {
                        return valid.get();
                    }
                }
            }
        }
        return null;
    }
}
