package io.recourse.streams;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.recourse.WireName;
import io.recourse.classification.Classification;
import io.recourse.classification.Code;
import io.recourse.evidence.TurnContext;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * The Recourse meters (DESIGN §10, §12 item 11) on one Micrometer registry; the processors
 * record what their pure stages decided, this class holds no policy. Names as Prometheus shows them:
 * <ul>
 *   <li>{@code recourse_classifications_total{code, class, confidence, rule_id, agent_type, provider}}
 *       — one per classified failed turn (evidence stage);</li>
 *   <li>{@code recourse_policy_decisions_total{context, code, result}} — one per owner decision on
 *       a failed turn; {@code context} is {@code kanban} or {@code office}, {@code result} the
 *       decision's disposition or status as the owner names it (e.g. {@code auto_retry},
 *       {@code manual}, {@code exhausted}, {@code declined}, {@code parked});</li>
 *   <li>{@code recourse_stale_evidence_total{context}} — failed turns whose evidence was stale when
 *       the owner processed it (DESIGN §8), so it authorized no automatic work;</li>
 *   <li>{@code recourse_timer_lag_seconds{owner, kind}} (a Timer: {@code _count}, {@code _sum},
 *       {@code _max}) — fire time minus due instant of every time-index entry a punctuator fires,
 *       in the owner's clock (never negative);</li>
 *   <li>the evidence counters of {@link EvidenceCounters} ({@code evidence_expired_total},
 *       {@code late_after_close_total}, {@code evidence_duplicates_total},
 *       {@code evidence_dropped_signals_total}).</li>
 * </ul>
 *
 * <p>Cardinality: {@code code}, {@code class}, {@code confidence}, {@code context}, {@code owner}
 * and {@code kind} are closed enums. {@code rule_id}, {@code agent_type}, {@code provider} and
 * {@code result} go through a {@link BoundedTag}: {@code none} when absent; the known agent types
 * and providers of the corpus always kept; up to {@value #EXTRA_AGENT_TYPES} other agent types,
 * {@value #EXTRA_PROVIDERS} other providers, {@value #EXTRA_RULE_IDS} rule ids and
 * {@value #EXTRA_RESULTS} results (first seen, well-formed names) kept; {@code other} beyond.
 * Thread-safe.
 */
public final class RecourseMeters {

    public static final String CLASSIFICATIONS = "recourse.classifications";
    public static final String POLICY_DECISIONS = "recourse.policy.decisions";
    public static final String STALE_EVIDENCE = "recourse.stale.evidence";
    public static final String TIMER_LAG = "recourse.timer.lag";

    /** Agent types the corpus knows (always kept as tag values). */
    static final Set<String> KNOWN_AGENT_TYPES = Set.of("claude-acp", "codex-acp", "gemini-cli", "opencode-acp",
            "goose-acp", "amp-acp", "copilot-acp");
    /** Providers the corpus knows (always kept as tag values). */
    static final Set<String> KNOWN_PROVIDERS = Set.of("anthropic", "openai", "google-gemini-api", "google-code-assist",
            "opencode");
    static final int EXTRA_AGENT_TYPES = 16;
    static final int EXTRA_PROVIDERS = 16;
    static final int EXTRA_RULE_IDS = 512;
    static final int EXTRA_RESULTS = 32;

    /** Where a policy decision was taken (DESIGN §6 Kanban interactive, §7 Office routing). */
    public enum Context implements WireName {
        KANBAN, OFFICE;

        @Override
        public String wire() {
            return WireName.of(this);
        }
    }

    private final MeterRegistry registry;
    private final EvidenceCounters evidence;
    private final BoundedTag agentTypes = new BoundedTag(KNOWN_AGENT_TYPES, EXTRA_AGENT_TYPES);
    private final BoundedTag providers = new BoundedTag(KNOWN_PROVIDERS, EXTRA_PROVIDERS);
    private final BoundedTag ruleIds = new BoundedTag(Set.of(), EXTRA_RULE_IDS);
    private final BoundedTag results = new BoundedTag(Set.of(), EXTRA_RESULTS);

    /** Meters on {@code registry} (the evidence counters included). */
    public RecourseMeters(MeterRegistry registry) {
        this(new EvidenceCounters(registry));
    }

    /** Meters on the registry of {@code evidence}, sharing those evidence counters. */
    public RecourseMeters(EvidenceCounters evidence) {
        this.evidence = Objects.requireNonNull(evidence, "evidence");
        this.registry = evidence.registry();
    }

    /** Meters on Micrometer's global registry: what {@code RecourseTopology.build(config)} uses. */
    public static RecourseMeters global() {
        return new RecourseMeters(Metrics.globalRegistry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** The evidence stage's counters, on the same registry. */
    public EvidenceCounters evidence() {
        return evidence;
    }

    /**
     * Counts one classified failed turn: {@code recourse_classifications_total} with the
     * classification's code, class, confidence and rule id and the turn's agent type and provider.
     */
    public void classified(Classification classification, TurnContext context) {
        Counter.builder(CLASSIFICATIONS)
                .description("failed turns classified, by semantic code, rule, agent type and provider")
                .tag("code", classification.code().wire())
                .tag("class", classification.errorClass().wire())
                .tag("confidence", classification.confidence().wire())
                .tag("rule_id", ruleIds.of(classification.ruleId()))
                .tag("agent_type", agentTypes.of(context == null ? null : context.agentType()))
                .tag("provider", providers.of(context == null ? null : context.providerId()))
                .register(registry)
                .increment();
    }

    /**
     * Counts one owner decision on a failed turn.
     *
     * @param code   the failed turn's code, or {@code null} when it had none (tag {@code none})
     * @param result the decision's disposition or status in the owner's wire words
     */
    public void policyDecision(Context context, Code code, String result) {
        Counter.builder(POLICY_DECISIONS)
                .description("owner decisions on failed turns, by execution context, code and result")
                .tag("context", context.wire())
                .tag("code", code == null ? BoundedTag.NONE : code.wire())
                .tag("result", results.of(result))
                .register(registry)
                .increment();
    }

    /** Counts one failed turn whose evidence was stale when {@code context}'s owner processed it (DESIGN §8). */
    public void staleEvidence(Context context) {
        Counter.builder(STALE_EVIDENCE)
                .description("failed turns whose evidence was older than the staleness bound when processed")
                .tag("context", context.wire())
                .register(registry)
                .increment();
    }

    /**
     * Records how late a timer fired: {@code fired − due} (clamped at zero) under
     * {@code recourse_timer_lag_seconds{owner, kind}}.
     *
     * @param owner {@code evidence}, {@code interactive} or {@code routing}
     * @param kind  the timer kind's wire name
     */
    public void timerLag(String owner, String kind, Duration lag) {
        Timer.builder(TIMER_LAG)
                .description("fire time minus due instant of time-index entries fired by punctuators")
                .tag("owner", owner)
                .tag("kind", kind)
                .register(registry)
                .record(lag.isNegative() ? Duration.ZERO : lag);
    }
}
