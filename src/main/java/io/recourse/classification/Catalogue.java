package io.recourse.classification;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.classification.Rule.Condition;
import io.recourse.classification.Rule.FieldMatch;
import io.recourse.classification.Rule.MatchType;
import io.recourse.classification.Rule.PhaseScope;
import io.recourse.evidence.SignalKind;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.ErrorClass;
import io.recourse.taxonomy.Handling;
import io.recourse.taxonomy.Scope;
import io.recourse.taxonomy.WireName;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The versioned, declarative rule set the classifier applies (DESIGN §5.2), loaded from a JSON
 * rule file such as {@value #DEFAULT_RESOURCE} and validated at load time.
 *
 * <p>Load-time validation fails with a {@link CatalogueException} naming the rule on: a missing or
 * malformed id, a duplicate id, a missing priority or a priority tie, an unknown code, a missing
 * {@code class} or one that disagrees with the code's class (DESIGN §5.1), a fallback-only code
 * ({@code unclassified} class) on a rule, an unknown confidence/scope/phase, an unknown signal kind
 * or field, a condition without exactly one match, a regex that does not compile or fails the
 * backtracking check ({@link RegexSafety}), an unknown hint extractor, hints on a code that carries
 * none, an {@code observed} entry that is not an observed-corpus case id ({@code obs-<group>-<nnn>}), and
 * unknown keys (typos) on rules and markers.
 */
public final class Catalogue {

    /** Classpath location of the shipped rule file. */
    public static final String DEFAULT_RESOURCE = "catalogue/provider-errors.v2.json";

    /** Classpath location of the previous rule file, kept for what-if comparison ({@code --rules classpath:…}). */
    public static final String V1_RESOURCE = "catalogue/provider-errors.v1.json";

    static final Pattern ID = Pattern.compile("[a-z0-9_]{1,40}(?:\\.[a-z0-9_]{1,40}){1,8}\\.v[0-9]{1,4}");
    private static final Pattern VERSION = Pattern.compile("[a-z0-9-]{1,60}\\.v[0-9]{1,4}");
    private static final Set<String> RULE_KEYS = Set.of("id", "priority", "why", "comment", "agents", "providers",
            "phase", "when", "sequence", "code", "class", "confidence", "scope", "background", "hints", "observed");
    private static final Set<String> MARKER_KEYS = Set.of("id", "why", "comment", "agents", "when", "observed");
    /** An observed-corpus case id ({@code obs-<group>-<nnn>}, src/test/resources/corpus/observed). */
    static final Pattern OBSERVED_ID = Pattern.compile("obs-[a-z0-9]{1,20}(?:-[a-z])?-[0-9]{3,4}");

    private final String version;
    private final List<String> notes;
    private final List<Rule> rules;
    private final List<Marker> backgroundMarkers;
    private final List<Marker> surfacedShapes;
    private final Fallback preStartFallback;
    private final Fallback postStartFallback;
    private final RuleIndex index;

    private Catalogue(String version, List<String> notes, List<Rule> rules, List<Marker> markers,
                      List<Marker> surfaced, Fallback preStart, Fallback postStart) {
        this.version = version;
        this.notes = List.copyOf(notes);
        List<Rule> sorted = new ArrayList<>(rules);
        sorted.sort(Comparator.comparingInt(Rule::priority).reversed());
        this.rules = List.copyOf(sorted);
        this.backgroundMarkers = List.copyOf(markers);
        this.surfacedShapes = List.copyOf(surfaced);
        this.preStartFallback = preStart;
        this.postStartFallback = postStart;
        this.index = RuleIndex.of(this.rules, this.backgroundMarkers, this.surfacedShapes);
    }

    /**
     * Loads the shipped catalogue ({@value #DEFAULT_RESOURCE}).
     *
     * @throws CatalogueException when it fails validation
     */
    public static Catalogue loadDefault() {
        return loadResource(DEFAULT_RESOURCE);
    }

    /**
     * Loads a rule file from the class path, e.g. {@value #V1_RESOURCE}.
     *
     * @throws CatalogueException when it is missing or fails validation
     */
    public static Catalogue loadResource(String resource) {
        try (InputStream in = Catalogue.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new CatalogueException(null, "missing classpath resource " + resource);
            }
            return load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Loads and validates a rule file (UTF-8 JSON).
     *
     * @throws CatalogueException naming the rule when validation fails
     * @throws UncheckedIOException when the stream cannot be read
     */
    public static Catalogue load(InputStream in) {
        try {
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Parses and validates a rule file given as JSON text.
     *
     * @throws CatalogueException naming the rule when validation fails
     */
    public static Catalogue parse(String json) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new CatalogueException(null, "rule file is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new CatalogueException(null, "rule file must be a JSON object");
        }
        String version = text(root, "catalogue_version", null);
        if (version == null || !VERSION.matcher(version).matches()) {
            throw new CatalogueException(null, "catalogue_version missing or malformed (e.g. provider-errors.v1)");
        }
        List<String> notes = new ArrayList<>();
        for (JsonNode n : root.path("notes")) {
            notes.add(n.asText());
        }
        Set<String> ids = new java.util.HashSet<>();
        JsonNode fb = root.path("fallbacks");
        Fallback pre = fallback(fb.path("pre_start"), "pre_start", Code.UNKNOWN_PROVIDER_ERROR, ids);
        Fallback post = fallback(fb.path("post_start"), "post_start", Code.AGENT_RUNTIME_ERROR, ids);

        Map<String, List<String>> fieldSets = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("field_sets").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            List<String> refs = new ArrayList<>();
            for (JsonNode r : e.getValue()) {
                CatalogueConditions.target(r.asText(), null);
                refs.add(r.asText());
            }
            fieldSets.put(e.getKey(), List.copyOf(refs));
        }
        List<Marker> markers = markers(root, "background_markers", ids, fieldSets);
        List<Marker> surfaced = markers(root, "surfaced_failure_shapes", ids, fieldSets);

        List<Rule> rules = new ArrayList<>();
        Map<Integer, String> priorities = new HashMap<>();
        JsonNode ruleNodes = root.path("rules");
        if (!ruleNodes.isArray() || ruleNodes.isEmpty()) {
            throw new CatalogueException(null, "rules must be a non-empty array");
        }
        int index = 0;
        for (JsonNode node : ruleNodes) {
            Rule rule = rule(node, "rules[" + index++ + "]", fieldSets);
            if (!ids.add(rule.id())) {
                throw new CatalogueException(rule.id(), "duplicate id");
            }
            String other = priorities.putIfAbsent(rule.priority(), rule.id());
            if (other != null) {
                throw new CatalogueException(rule.id(), "priority " + rule.priority() + " ties with rule '" + other + "'");
            }
            rules.add(rule);
        }
        return new Catalogue(version, notes, rules, markers, surfaced, pre, post);
    }

    private static List<Marker> markers(JsonNode root, String key, Set<String> ids, Map<String, List<String>> fieldSets) {
        List<Marker> out = new ArrayList<>();
        int m = 0;
        for (JsonNode node : root.path(key)) {
            String id = ruleId(node, key + "[" + m++ + "]");
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!MARKER_KEYS.contains(k)) {
                    throw new CatalogueException(id, "unknown key '" + k + "'");
                }
            }
            observed(node, id);
            if (!ids.add(id)) {
                throw new CatalogueException(id, "duplicate id");
            }
            Condition c = CatalogueConditions.condition(node.path("when"), id, fieldSets);
            if (c.negate()) {
                throw new CatalogueException(id, "a marker cannot be negated");
            }
            out.add(new Marker(id, names(node, "agents", id), c));
        }
        return out;
    }

    private static Fallback fallback(JsonNode node, String which, Code expected, Set<String> ids) {
        if (node.isMissingNode()) {
            Fallback f = new Fallback("fallback." + which + ".v1", expected);
            ids.add(f.ruleId());
            return f;
        }
        String id = ruleId(node, "fallbacks." + which);
        Code code = code(node, id);
        if (code != expected) {
            throw new CatalogueException(id, "the " + which + " fallback must be " + expected.wire());
        }
        checkClass(node, id, code);
        if (!ids.add(id)) {
            throw new CatalogueException(id, "duplicate id");
        }
        return new Fallback(id, code);
    }

    private static Rule rule(JsonNode node, String where, Map<String, List<String>> fieldSets) {
        String id = ruleId(node, where);
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!RULE_KEYS.contains(key)) {
                throw new CatalogueException(id, "unknown key '" + key + "'");
            }
        }
        JsonNode p = node.get("priority");
        if (p == null || !p.canConvertToInt() || !p.isIntegralNumber()) {
            throw new CatalogueException(id, "missing or non-integer priority");
        }
        Code code = code(node, id);
        if (code.errorClass() == ErrorClass.UNCLASSIFIED) {
            throw new CatalogueException(id, "code " + code.wire() + " is a fallback code; no rule may produce it");
        }
        checkClass(node, id, code);
        Confidence confidence = wire(Confidence.class, text(node, "confidence", id), id, "confidence");
        Scope scope = wire(Scope.class, text(node, "scope", id), id, "scope");
        PhaseScope phase;
        String ph = node.has("phase") ? node.get("phase").asText() : "any";
        try {
            phase = PhaseScope.valueOf(ph.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CatalogueException(id, "unknown phase '" + ph + "' (any, pre_start, post_start)");
        }
        JsonNode when = node.path("when");
        if (!when.isArray() || when.isEmpty()) {
            throw new CatalogueException(id, "'when' must be a non-empty array of conditions");
        }
        List<Condition> conditions = new ArrayList<>();
        for (JsonNode c : when) {
            conditions.add(CatalogueConditions.condition(c, id, fieldSets));
        }
        if (conditions.stream().allMatch(Condition::negate)) {
            throw new CatalogueException(id, "needs at least one positive condition");
        }
        List<String> hints = new ArrayList<>();
        for (JsonNode h : node.path("hints")) {
            String name = h.asText();
            if (!HintExtractors.NAMES.contains(name)) {
                throw new CatalogueException(id, "unknown hint extractor '" + name + "'; known: " + new TreeSet<>(HintExtractors.NAMES));
            }
            hints.add(name);
        }
        if (!hints.isEmpty() && !takesHints(code)) {
            throw new CatalogueException(id, "hints are only extracted for rate_limited and quota_limited, not " + code.wire());
        }
        String why = node.has("why") ? node.get("why").asText() : "";
        if (why.isBlank()) {
            throw new CatalogueException(id, "missing 'why'");
        }
        observed(node, id);
        return new Rule(id, p.asInt(), names(node, "agents", id), names(node, "providers", id), phase, conditions,
                node.path("sequence").asBoolean(false), code, confidence,
                scope, node.path("background").asBoolean(false), hints, why);
    }

    /**
     * True for the codes whose rules may extract timing hints: throttles ({@code retry_after}) and
     * renewable quotas ({@code reset_at}), DESIGN §5.2.
     */
    static boolean takesHints(Code code) {
        return code.handling() == Handling.THROTTLE || code.handling() == Handling.RENEWABLE_QUOTA;
    }

    /**
     * Validates the optional {@code observed} list: the observed-corpus cases (round-1 cases, never holdout) a rule or
     * shape was written from, each an {@code obs-<group>-<nnn>} id, no duplicates.
     */
    private static List<String> observed(JsonNode node, String id) {
        JsonNode arr = node.get("observed");
        if (arr == null) {
            return List.of();
        }
        if (!arr.isArray()) {
            throw new CatalogueException(id, "'observed' must be an array of observed-corpus case ids");
        }
        Set<String> seen = new LinkedHashSet<>();
        for (JsonNode o : arr) {
            if (!o.isTextual() || !OBSERVED_ID.matcher(o.asText()).matches()) {
                throw new CatalogueException(id, "'observed' entry " + o + " is not an observed-corpus case id (obs-<group>-<nnn>)");
            }
            if (!seen.add(o.asText())) {
                throw new CatalogueException(id, "'observed' lists " + o.asText() + " twice");
            }
        }
        return List.copyOf(seen);
    }

    private static Set<String> names(JsonNode node, String key, String id) {
        Set<String> out = new LinkedHashSet<>();
        JsonNode arr = node.path(key);
        if (!arr.isMissingNode() && !arr.isArray()) {
            throw new CatalogueException(id, "'" + key + "' must be an array");
        }
        for (JsonNode a : arr) {
            out.add(a.asText().toLowerCase(Locale.ROOT));
        }
        return out;
    }

    private static String ruleId(JsonNode node, String where) {
        JsonNode id = node.get("id");
        if (id == null || !id.isTextual()) {
            throw new CatalogueException(null, where + ": missing id");
        }
        if (!ID.matcher(id.asText()).matches()) {
            throw new CatalogueException(id.asText(), "malformed id (lower-case dotted words ending in .v<N>)");
        }
        return id.asText();
    }

    private static Code code(JsonNode node, String id) {
        return wire(Code.class, text(node, "code", id), id, "code");
    }

    private static void checkClass(JsonNode node, String id, Code code) {
        JsonNode cls = node.get("class");
        if (cls == null || cls.asText().isBlank()) {
            throw new CatalogueException(id, "code " + code.wire() + " has no class");
        }
        ErrorClass declared = wire(ErrorClass.class, cls.asText(), id, "class");
        if (declared != code.errorClass()) {
            throw new CatalogueException(id, "class " + declared.wire() + " disagrees with DESIGN §5.1: "
                    + code.wire() + " is " + code.errorClass().wire());
        }
    }

    private static <E extends Enum<E> & WireName> E wire(Class<E> type, String value, String id, String what) {
        try {
            return WireName.parse(type, value);
        } catch (IllegalArgumentException e) {
            throw new CatalogueException(id, "unknown " + what + " '" + value + "'");
        }
    }

    static String text(JsonNode node, String key, String id) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            if (id == null) {
                return null;
            }
            throw new CatalogueException(id, "missing '" + key + "'");
        }
        return v.asText();
    }

    /** E.g. {@code provider-errors.v1}; recorded on every classification. */
    public String version() {
        return version;
    }

    /** The file's decision notes (quota vs rate limit vs subscription, …). */
    public List<String> notes() {
        return notes;
    }

    /** Rules in the order they are tried: highest priority first. */
    public List<Rule> rules() {
        return rules;
    }

    /** Signal tests that mark a signal as a background request (DESIGN §5.2). */
    public List<Marker> backgroundMarkers() {
        return backgroundMarkers;
    }

    /**
     * Anchored shapes of a failure an agent surfaced as its answer (DESIGN §5.2: "the chunk
     * <em>is</em> an {@code API Error: <status>} message, a known error preface, a known terminal
     * error sentence"). A final chunk is read by rules only when a shape marks it, and a completed
     * turn fails only on a match resting on a marked signal.
     */
    public List<Marker> surfacedShapes() {
        return surfacedShapes;
    }

    /** Fallback for a turn closed before its prompt started ({@code unknown_provider_error}). */
    public Fallback preStartFallback() {
        return preStartFallback;
    }

    /** Fallback for a turn that failed after start ({@code agent_runtime_error}). */
    public Fallback postStartFallback() {
        return postStartFallback;
    }

    /** The rules and markers compiled for {@link Classifier#classify} (built once, at load). */
    RuleIndex index() {
        return index;
    }

    /** The rule with {@code id}, if any. */
    public java.util.Optional<Rule> rule(String id) {
        return rules.stream().filter(r -> r.id().equals(id)).findFirst();
    }

    /** A fallback: the rule id recorded when nothing matched, and its code. */
    public record Fallback(String ruleId, Code code) {
    }

    /**
     * A signal test that marks signals: a background request (OpenCode's {@code small=true} /
     * {@code agent=title} diagnostics) or a surfaced-failure shape.
     */
    public record Marker(String id, Set<String> agents, Condition condition) {

        /** True when the marker applies to {@code agentType} and {@code signal}. */
        public boolean marks(String agentType, io.recourse.evidence.Signal signal, int maxChars) {
            return marks(agentType, signal, maxChars, false);
        }

        /** {@link #marks(String, io.recourse.evidence.Signal, int)}; {@code plainRegex}: without {@link RegexPrefilter}. */
        boolean marks(String agentType, io.recourse.evidence.Signal signal, int maxChars, boolean plainRegex) {
            boolean agentOk = agents.isEmpty() || agentType != null && Rule.inFamily(agents, agentType);
            return agentOk && condition.hits(signal, maxChars, plainRegex);
        }
    }
}
