package io.recourse.classification;

import com.fasterxml.jackson.databind.JsonNode;
import io.recourse.classification.Rule.Condition;
import io.recourse.classification.Rule.FieldMatch;
import io.recourse.classification.Rule.MatchType;
import io.recourse.evidence.SignalKind;
import io.recourse.taxonomy.WireName;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads one rule condition ({@code when} entry) or marker test of a catalogue file into a
 * {@link Condition}: its fields ({@code in} with {@code @field_set}s, or {@code kind} +
 * {@code field(s)}), exactly one match ({@code literal}, {@code literal_ci}, {@code equals},
 * {@code equals_ci}, {@code regex}, {@code regex_ci} checked by {@link RegexSafety} — one regex or a
 * list of up to {@value #MAX_REGEX_PARTS}, any of which may match —, {@code number}),
 * an optional {@code unless} and {@code not} (DESIGN §5.2; catalogue README, "Layout"). Every error
 * is a {@link CatalogueException} naming the rule. Used by {@link Catalogue}'s loader.
 */
final class CatalogueConditions {

    private CatalogueConditions() {
    }

    private static final Set<String> MATCH_KEYS = Set.of("literal", "literal_ci", "equals", "equals_ci", "regex",
            "regex_ci", "number");
    private static final Set<String> CONDITION_KEYS;

    static {
        Set<String> keys = new java.util.HashSet<>(MATCH_KEYS);
        keys.addAll(Set.of("kind", "field", "fields", "in", "unless", "not", "comment"));
        CONDITION_KEYS = Set.copyOf(keys);
    }

    private static final Map<SignalKind, Set<String>> FIELDS = Map.of(
            SignalKind.ERROR, Set.of("code", "message", "data"),
            SignalKind.STDERR, Set.of("line"),
            SignalKind.EXIT, Set.of("code", "signal"),
            SignalKind.HTTP, Set.of("status", "body"),
            SignalKind.STOP, Set.of("stop_reason"),
            SignalKind.UPDATE_META, Set.of("update", "meta", "text"),
            SignalKind.FINAL_CHUNK, Set.of("text"),
            SignalKind.LIFECYCLE, Set.of("event", "message", "phase"));
    private static final Pattern HEADER_FIELD = Pattern.compile("header\\.[a-z0-9-]{1,80}");

    static Condition condition(JsonNode c, String id, Map<String, List<String>> fieldSets) {
        if (!c.isObject()) {
            throw new CatalogueException(id, "a condition must be an object");
        }
        for (Iterator<String> it = c.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!CONDITION_KEYS.contains(key)) {
                throw new CatalogueException(id, "unknown condition key '" + key + "'");
            }
        }
        List<String> refs = new ArrayList<>();
        if (c.has("in")) {
            if (c.has("kind") || c.has("field") || c.has("fields")) {
                throw new CatalogueException(id, "a condition names its fields with either 'in' or 'kind'+'field(s)'");
            }
            for (JsonNode r : c.get("in")) {
                String ref = r.asText();
                if (ref.startsWith("@")) {
                    List<String> set = fieldSets.get(ref.substring(1));
                    if (set == null) {
                        throw new CatalogueException(id, "unknown field set '" + ref + "'");
                    }
                    refs.addAll(set);
                } else {
                    refs.add(ref);
                }
            }
        } else {
            String k = Catalogue.text(c, "kind", id);
            if (c.has("field")) {
                refs.add(k + "." + c.get("field").asText());
            }
            for (JsonNode f : c.path("fields")) {
                refs.add(k + "." + f.asText());
            }
        }
        if (refs.isEmpty()) {
            throw new CatalogueException(id, "condition names no field");
        }
        List<Rule.Target> targets = new ArrayList<>();
        for (String ref : refs) {
            targets.add(target(ref, id));
        }
        FieldMatch match = match(c, id);
        FieldMatch unless = null;
        if (c.has("unless")) {
            unless = unless(c.get("unless"), id);
        }
        return new Condition(targets, match, unless, c.path("not").asBoolean(false));
    }

    /** Most parts an {@code unless} list may hold. */
    static final int MAX_UNLESS_PARTS = 4;

    /** Most regexes a {@code regex} or {@code regex_ci} list may hold (as many as an {@code unless} list). */
    static final int MAX_REGEX_PARTS = MAX_UNLESS_PARTS;

    /**
     * A condition's {@code unless}: one match object, or a list of at most {@value #MAX_UNLESS_PARTS}
     * regex matches of one kind (all {@code regex} or all {@code regex_ci}), each checked on its own
     * by {@link RegexSafety} (so each within its length bound); a value matching any of them
     * disqualifies the signal. The parts stay separate patterns of one {@link FieldMatch} (its test
     * is {@code find()} of any of them). Errors (naming the rule and the part's index): an empty or
     * longer list, a part that is not a regex or is itself a list, parts of both kinds.
     */
    private static FieldMatch unless(JsonNode u, String id) {
        if (!u.isArray()) {
            return match(u, id);
        }
        if (u.isEmpty() || u.size() > MAX_UNLESS_PARTS) {
            throw new CatalogueException(id, "an 'unless' list holds 1 to " + MAX_UNLESS_PARTS + " regex matches, got " + u.size());
        }
        String kind = null;
        List<Pattern> patterns = new ArrayList<>();
        for (int i = 0; i < u.size(); i++) {
            JsonNode part = u.get(i);
            String where = "unless[" + i + "]: ";
            FieldMatch m = match(part, id, where);
            if (m.type() != MatchType.REGEX || m.patterns().size() != 1) {
                throw new CatalogueException(id, where + "an 'unless' list holds regex or regex_ci matches only, each of one regex");
            }
            String k = part.has("regex") ? "regex" : "regex_ci";
            if (kind != null && !kind.equals(k)) {
                throw new CatalogueException(id, where + "an 'unless' list holds matches of one kind (all regex or all regex_ci)");
            }
            kind = k;
            patterns.add(m.patterns().get(0));
        }
        return new FieldMatch(MatchType.REGEX, null, patterns, null);
    }

    static Rule.Target target(String ref, String id) {
        int dot = ref.indexOf('.');
        if (dot < 0) {
            throw new CatalogueException(id, "field '" + ref + "' must be <kind>.<field>");
        }
        String k = ref.substring(0, dot);
        String f = ref.substring(dot + 1);
        SignalKind kind;
        try {
            kind = WireName.parse(SignalKind.class, k);
        } catch (IllegalArgumentException e) {
            throw new CatalogueException(id, "unknown signal kind '" + k + "'");
        }
        boolean header = kind == SignalKind.HTTP && HEADER_FIELD.matcher(f).matches();
        if (!header && !FIELDS.get(kind).contains(f)) {
            throw new CatalogueException(id, "unknown field '" + f + "' of kind " + k + "; known: "
                    + new TreeSet<>(FIELDS.get(kind)) + (kind == SignalKind.HTTP ? " and header.<lower-case name>" : ""));
        }
        return new Rule.Target(kind, f);
    }

    private static FieldMatch match(JsonNode c, String id) {
        return match(c, id, "");
    }

    /** {@link #match(JsonNode, String)}, its errors prefixed with {@code where} (an {@code unless} part's index). */
    private static FieldMatch match(JsonNode c, String id, String where) {
        List<String> present = new ArrayList<>();
        c.fieldNames().forEachRemaining(f -> {
            if (MATCH_KEYS.contains(f)) {
                present.add(f);
            }
        });
        if (present.size() != 1) {
            throw new CatalogueException(id, where + "a condition needs exactly one of " + new TreeSet<>(MATCH_KEYS) + ", got " + present);
        }
        String key = present.get(0);
        JsonNode v = c.get(key);
        switch (key) {
            case "number" -> {
                Set<Long> numbers = new TreeSet<>();
                if (v.isArray()) {
                    v.forEach(n -> numbers.add(number(n, id)));
                } else {
                    numbers.add(number(v, id));
                }
                if (numbers.isEmpty()) {
                    throw new CatalogueException(id, where + "empty number list");
                }
                return new FieldMatch(MatchType.NUMBER, null, null, numbers);
            }
            case "regex", "regex_ci" -> {
                int flags = key.equals("regex_ci") ? Pattern.CASE_INSENSITIVE : 0; // ASCII case folding: provider texts are ASCII, and it is several times faster
                if (!v.isArray()) {
                    return FieldMatch.regex(regex(v.asText(), flags, id, where));
                }
                if (v.isEmpty() || v.size() > MAX_REGEX_PARTS) {
                    throw new CatalogueException(id, where + "a '" + key + "' list holds 1 to " + MAX_REGEX_PARTS + " regexes, got " + v.size());
                }
                List<Pattern> patterns = new ArrayList<>();
                for (int i = 0; i < v.size(); i++) {
                    String at = where + key + "[" + i + "]: ";
                    if (!v.get(i).isTextual() || v.get(i).asText().isEmpty()) {
                        throw new CatalogueException(id, at + "a list element must be a non-empty string");
                    }
                    patterns.add(regex(v.get(i).asText(), flags, id, at));
                }
                return new FieldMatch(MatchType.REGEX, null, patterns, null);
            }
            default -> {
                if (!v.isTextual() || v.asText().isEmpty()) {
                    throw new CatalogueException(id, where + key + " must be a non-empty string");
                }
                MatchType type = MatchType.valueOf(key.toUpperCase(Locale.ROOT));
                return new FieldMatch(type, v.asText(), null, null);
            }
        }
    }

    /**
     * One regex of a {@code regex} / {@code regex_ci} value: a string that {@link RegexSafety}
     * accepts (at most {@value RegexSafety#MAX_LENGTH} characters) and that compiles with {@code flags}.
     *
     * @param where prefix of the error naming the list element ({@code regex[1]: }), or empty
     */
    private static Pattern regex(String re, int flags, String id, String where) {
        String unsafe = RegexSafety.check(re);
        if (unsafe != null) {
            throw new CatalogueException(id, where + "regex /" + re + "/ rejected: " + unsafe);
        }
        try {
            return Pattern.compile(re, flags);
        } catch (PatternSyntaxException e) {
            throw new CatalogueException(id, where + "regex /" + re + "/ does not compile: " + e.getDescription(), e);
        }
    }

    private static long number(JsonNode n, String id) {
        if (!n.isIntegralNumber()) {
            throw new CatalogueException(id, "number must be an integer, got " + n);
        }
        return n.asLong();
    }
}
