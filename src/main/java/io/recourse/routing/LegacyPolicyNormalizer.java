package io.recourse.routing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.ErrorClass;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The ONE place legacy single-action policy maps become class policies (DESIGN §7.1, §12 item 12).
 *
 * <p>Legacy actions: {@code try_next} → immediate skip (no retry, no wait, {@code skip});
 * {@code stop} → immediate stop (no retry, no wait, {@code stop}); {@code retry_same} → one retry
 * after 5 s, then {@code stop}.
 *
 * <p>Where a candidate may state a class policy, in order of precedence:
 * <ol>
 *   <li>an explicit policy object {@code policies.<class>} ({@code {retry, wait_for_reset, on_exhausted}});</li>
 *   <li>a legacy action: {@code policies.<class>} given as a bare action string, or entries of the
 *       candidate's legacy map {@code legacy_actions} keyed by the class ({@code transient},
 *       {@code hard}) or by a code of that class (e.g. {@code model_capacity});</li>
 *   <li>the seed's default ({@link Policies#DEFAULT}) when the candidate states nothing for the class.</li>
 * </ol>
 * A class stated by more than one of (1) and (2), legacy entries of one class that disagree, a
 * legacy object carrying {@code action} next to policy fields, an unknown action, and a legacy key
 * that names no {@code transient}/{@code hard} class or code are validation errors — never a
 * silent pick. {@code legacy_actions} is removed from the normalized document.
 */
public final class LegacyPolicyNormalizer {

    private static final String LEGACY_MAP = "legacy_actions";

    private LegacyPolicyNormalizer() {
    }

    /** The class policy a legacy action stands for; {@code null} for an unknown action. */
    public static ClassPolicy fromLegacyAction(String action) {
        return switch (action) {
            case "try_next" -> new ClassPolicy(RetryPolicy.OFF, WaitForReset.OFF, OnExhausted.SKIP);
            case "stop" -> new ClassPolicy(RetryPolicy.OFF, WaitForReset.OFF, OnExhausted.STOP);
            case "retry_same" -> new ClassPolicy(RetryPolicy.of(1, 5), WaitForReset.OFF, OnExhausted.STOP);
            default -> null;
        };
    }

    /**
     * Normalizes {@code document} in place (a parsed profile document) and returns the errors found;
     * the document is only meaningful when the list is empty.
     */
    public static List<RouteConfigError> normalize(ObjectNode document, java.util.function.Function<ClassPolicy, JsonNode> toTree) {
        List<RouteConfigError> errors = new ArrayList<>();
        JsonNode candidates = document.get("candidates");
        if (candidates == null || !candidates.isArray()) {
            return errors; // the validator reports it
        }
        for (int i = 0; i < candidates.size(); i++) {
            if (candidates.get(i) instanceof ObjectNode candidate) {
                normalizeCandidate("candidates[" + i + "]", candidate, toTree, errors);
            }
        }
        return errors;
    }

    private static void normalizeCandidate(String at, ObjectNode candidate,
            java.util.function.Function<ClassPolicy, JsonNode> toTree, List<RouteConfigError> errors) {
        Map<ErrorClass, Map<String, String>> legacy = new LinkedHashMap<>(); // class -> (field -> action)
        JsonNode map = candidate.remove(LEGACY_MAP);
        if (map != null && !map.isNull()) {
            if (!map.isObject()) {
                errors.add(new RouteConfigError(at + "." + LEGACY_MAP, "must be an object of class or code to action"));
            } else {
                for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    String field = at + "." + LEGACY_MAP + "." + e.getKey();
                    ErrorClass cls = classOfLegacyKey(e.getKey());
                    if (cls == null) {
                        errors.add(new RouteConfigError(field, "names no transient or hard class or code"));
                    } else if (!e.getValue().isTextual() || fromLegacyAction(e.getValue().asText()) == null) {
                        errors.add(new RouteConfigError(field, "must be try_next, stop or retry_same"));
                    } else {
                        legacy.computeIfAbsent(cls, k -> new LinkedHashMap<>()).put(field, e.getValue().asText());
                    }
                }
            }
        }
        JsonNode policiesNode = candidate.get("policies");
        if (policiesNode != null && !policiesNode.isNull() && !policiesNode.isObject()) {
            errors.add(new RouteConfigError(at + ".policies", "must be an object"));
            return;
        }
        ObjectNode policies = policiesNode instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
        for (ErrorClass cls : List.of(ErrorClass.TRANSIENT, ErrorClass.HARD)) {
            String key = cls.wire();
            String field = at + ".policies." + key;
            JsonNode stated = policies.get(key);
            Map<String, String> actions = new LinkedHashMap<>(legacy.getOrDefault(cls, Map.of()));
            boolean explicit = false;
            if (stated != null && !stated.isNull()) {
                if (stated.isTextual()) {
                    if (fromLegacyAction(stated.asText()) == null) {
                        errors.add(new RouteConfigError(field, "must be try_next, stop or retry_same"));
                        continue;
                    }
                    actions.put(field, stated.asText());
                } else if (stated.isObject() && stated.has("action")) {
                    if (stated.size() > 1) {
                        errors.add(new RouteConfigError(field, "conflict: legacy action next to policy fields"));
                        continue;
                    }
                    JsonNode a = stated.get("action");
                    if (!a.isTextual() || fromLegacyAction(a.asText()) == null) {
                        errors.add(new RouteConfigError(field + ".action", "must be try_next, stop or retry_same"));
                        continue;
                    }
                    actions.put(field + ".action", a.asText());
                } else {
                    explicit = true;
                }
            }
            if (explicit && !actions.isEmpty()) {
                errors.add(new RouteConfigError(field,
                        "conflict: explicit policy and legacy action(s) at " + String.join(", ", actions.keySet())));
                continue;
            }
            if (new TreeSet<>(actions.values()).size() > 1) {
                errors.add(new RouteConfigError(at + "." + LEGACY_MAP,
                        "conflict: legacy actions for class " + key + " disagree: " + actions));
                continue;
            }
            if (!explicit) {
                ClassPolicy p = actions.isEmpty()
                        ? Policies.DEFAULT.of(cls)
                        : fromLegacyAction(actions.values().iterator().next());
                policies.set(key, toTree.apply(p));
            }
        }
        candidate.set("policies", policies);
    }

    private static ErrorClass classOfLegacyKey(String key) {
        if (key.equals(ErrorClass.TRANSIENT.wire())) {
            return ErrorClass.TRANSIENT;
        }
        if (key.equals(ErrorClass.HARD.wire())) {
            return ErrorClass.HARD;
        }
        for (Code c : Code.values()) {
            if (c.wire().equals(key)) {
                ErrorClass cls = c.errorClass();
                return cls == ErrorClass.TRANSIENT || cls == ErrorClass.HARD ? cls : null;
            }
        }
        return null;
    }
}
