package io.recourse.evidence.streams;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.recourse.evidence.TurnContext;
import io.recourse.kit.BoundedTag;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.WireName;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * The Recourse meters (DESIGN §10, §12 item 11) on one Micrometer registry; the processors
 * record what their pure stages decided, this class holds no policy. Names as Prometheus shows them:
 * <ul>
 *   <li>{@code recourse_classifications_total{code, class, confidence, rule_id, agent_type, provider}}
 *       — one per classified failed turn (evidence stage);</li>
 *   <li>{@code recourse_policy_decisions_total{context, code, result, agent_type, provider, rule_id}}
 *       — one per owner decision on a failed turn; {@code context} is {@code kanban} or
 *       {@code office}, {@code result} the decision's disposition or status as the owner names it
 *       (e.g. {@code auto_retry}, {@code manual}, {@code exhausted}, {@code declined},
 *       {@code parked}), {@code agent_type} and {@code provider} those of the failed turn,
 *       {@code rule_id} its classification's rule;</li>
 *   <li>{@code recourse_stale_evidence_total{context}} — failed turns whose evidence was stale when
 *       the owner processed it (DESIGN §8), so it authorized no automatic work;</li>
 *   <li>{@code recourse_timer_lag_seconds{owner, kind}} (a Timer: {@code _count}, {@code _sum},
 *       {@code _max}) — fire time minus due instant of every time-index entry a punctuator fires,
 *       in the owner's clock (never negative);</li>
 *   <li>{@code recourse_route_config_unknown_fields_total} — unknown members ignored in accepted
 *       route configuration documents (DESIGN §7.1), no tags;</li>
 *   <li>the evidence counters of {@link EvidenceCounters} ({@code evidence_expired_total},
 *       {@code late_after_close_total}, {@code evidence_duplicates_total},
 *       {@code evidence_dropped_signals_total}).</li>
 * </ul>
 *
 * <p>Cardinality: {@code code}, {@code class}, {@code confidence}, {@code context}, {@code owner}
 * and {@code kind} are closed enums. {@code agent_type} and {@code provider} come from an
 * allow-list, never from whoever comes first (DESIGN §10): {@code none} when absent, the value when
 * it is one of {@link #KNOWN_AGENT_TYPES} / {@link #KNOWN_PROVIDERS} or of the configured
 * {@code recourse.metrics.agent-types} / {@code recourse.metrics.providers}, else {@code other} —
 * so a frame's free text never becomes a label value, and a genuine new adapter is named by
 * configuration. A decision's {@code rule_id} is closed too: the rule and fallback ids of the loaded
 * catalogue ({@link #allowRuleIds}, called when the topology is built, before any record) and the
 * evidence stage's own fail-closed fallbacks ({@link #FALLBACK_RULE_IDS}); {@code none} when absent,
 * anything else {@code other}. A classification's {@code rule_id} and {@code result} are Recourse's
 * own words (the catalogue's rule ids, the owners' wire names) and go through a {@link BoundedTag}: up to
 * {@value #EXTRA_RULE_IDS} rule ids and {@value #EXTRA_RESULTS} results (first seen, well-formed
 * names) kept; {@code other} beyond. Thread-safe.
 */
public final class RecourseMeters {

    public static final String CLASSIFICATIONS = "recourse.classifications";
    public static final String POLICY_DECISIONS = "recourse.policy.decisions";
    public static final String STALE_EVIDENCE = "recourse.stale.evidence";
    public static final String TIMER_LAG = "recourse.timer.lag";
    public static final String ROUTE_CONFIG_UNKNOWN_FIELDS = "recourse.route.config.unknown.fields";
    /** The largest lag a timer records: {@link Long#MAX_VALUE} nanoseconds (about 292 years). */
    public static final Duration MAX_TIMER_LAG = Duration.ofNanos(Long.MAX_VALUE);

    /** Built-in agent types (ACP adapters and agent CLIs) kept as {@code agent_type} label values. */
    public static final Set<String> KNOWN_AGENT_TYPES = Set.of("claude-acp", "claude-code", "codex-acp", "codex-cli",
            "gemini-cli", "opencode-acp", "goose-acp", "copilot-acp", "cursor-acp", "qwen-code", "amp-acp", "aider",
            "cline", "kiro-cli", "auggie-acp", "crush-acp", "kimi-cli", "droid-acp", "junie-acp");
    /** Built-in providers kept as {@code provider} label values. */
    public static final Set<String> KNOWN_PROVIDERS = Set.of("anthropic", "openai", "google", "google-gemini-api",
            "google-code-assist", "vertex", "bedrock", "azure", "openrouter", "deepseek", "mistral", "xai", "moonshot",
            "zai", "dashscope", "groq", "together", "fireworks", "cerebras", "ollama", "github-copilot", "opencode");
    /**
     * The rule ids of the evidence stage's fail-closed fallbacks (a classifier that throws fails the
     * turn as unclassified, {@code io.recourse.classification.TurnOutcomes}), always allowed as a
     * decision's {@code rule_id}.
     */
    public static final Set<String> FALLBACK_RULE_IDS = Set.of("evidence.fallback.prestart", "evidence.fallback.poststart");
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
    private final BoundedTag agentTypes;
    private final BoundedTag providers;
    private final BoundedTag ruleIds = new BoundedTag(Set.of(), EXTRA_RULE_IDS);
    private final BoundedTag results = new BoundedTag(Set.of(), EXTRA_RESULTS);
    private final Set<String> decisionRuleIdSet = new java.util.HashSet<>(FALLBACK_RULE_IDS);
    private volatile BoundedTag decisionRuleIds = new BoundedTag(FALLBACK_RULE_IDS, 0);

    /** Meters on {@code registry} (the evidence counters included). */
    public RecourseMeters(MeterRegistry registry) {
        this(new EvidenceCounters(registry));
    }

    /** Meters on the registry of {@code evidence}, sharing those evidence counters; built-in label lists only. */
    public RecourseMeters(EvidenceCounters evidence) {
        this(evidence, Set.of(), Set.of());
    }

    /**
     * Meters on the registry of {@code evidence}, with label values allowed beyond the built-in
     * lists (the configured {@code recourse.metrics.agent-types} / {@code recourse.metrics.providers}).
     *
     * @param agentTypes extra {@code agent_type} values (compared in lower case)
     * @param providers  extra {@code provider} values (compared in lower case)
     */
    public RecourseMeters(EvidenceCounters evidence, Set<String> agentTypes, Set<String> providers) {
        this.evidence = Objects.requireNonNull(evidence, "evidence");
        this.registry = evidence.registry();
        this.agentTypes = new BoundedTag(union(KNOWN_AGENT_TYPES, agentTypes), 0);
        this.providers = new BoundedTag(union(KNOWN_PROVIDERS, providers), 0);
    }

    private static Set<String> union(Set<String> builtIn, Set<String> configured) {
        Set<String> all = new java.util.HashSet<>(builtIn);
        for (String v : configured) {
            all.add(v.strip().toLowerCase(java.util.Locale.ROOT));
        }
        return all;
    }

    /** Meters on Micrometer's global registry (the demos name it in {@code RecourseTopology.Options.with}). */
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
     * Adds the rule ids of a loaded catalogue (its rules and fallbacks) to the values a decision's
     * {@code rule_id} may take (compared in lower case). Called with the closed set known at start,
     * never with a value from input.
     */
    public void allowRuleIds(java.util.Collection<String> ruleIds) {
        synchronized (decisionRuleIdSet) {
            for (String id : ruleIds) {
                decisionRuleIdSet.add(id.strip().toLowerCase(java.util.Locale.ROOT));
            }
            decisionRuleIds = new BoundedTag(decisionRuleIdSet, 0);
        }
    }

    /**
     * Counts one owner decision on a failed turn without its turn ({@code agent_type},
     * {@code provider} and {@code rule_id} read {@code none}).
     */
    public void policyDecision(Context context, Code code, String result) {
        policyDecision(context, code, result, null, null);
    }

    /**
     * Counts one owner decision on a failed turn.
     *
     * @param code   the failed turn's code, or {@code null} when it had none (tag {@code none})
     * @param result the decision's disposition or status in the owner's wire words
     * @param turn   the failed turn's context ({@code agent_type}, {@code provider}; allow-listed), or {@code null}
     * @param ruleId the rule of its classification (allow-listed: the catalogue's and the fallbacks'), or {@code null}
     */
    public void policyDecision(Context context, Code code, String result, TurnContext turn, String ruleId) {
        Counter.builder(POLICY_DECISIONS)
                .description("owner decisions on failed turns, by execution context, code, result, agent type, provider and rule")
                .tag("context", context.wire())
                .tag("code", code == null ? BoundedTag.NONE : code.wire())
                .tag("result", results.of(result))
                .tag("agent_type", agentTypes.of(turn == null ? null : turn.agentType()))
                .tag("provider", providers.of(turn == null ? null : turn.providerId()))
                .tag("rule_id", decisionRuleIds.of(ruleId))
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
     * Counts {@code count} unknown members ignored in an accepted route configuration document
     * (DESIGN §7.1) under {@code recourse_route_config_unknown_fields_total}; {@code 0} only
     * registers the counter.
     */
    public void routeConfigUnknownFields(int count) {
        Counter.builder(ROUTE_CONFIG_UNKNOWN_FIELDS)
                .description("unknown members ignored in accepted route configuration documents")
                .register(registry)
                .increment(count);
    }

    /**
     * Records how late a timer fired: {@code fired − due} (clamped at zero, and at
     * {@link #MAX_TIMER_LAG}: a stream time centuries past an entry must not overflow the
     * timer's nanoseconds) under {@code recourse_timer_lag_seconds{owner, kind}}.
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
                .record(lag.isNegative() ? Duration.ZERO : lag.compareTo(MAX_TIMER_LAG) > 0 ? MAX_TIMER_LAG : lag);
    }
}
