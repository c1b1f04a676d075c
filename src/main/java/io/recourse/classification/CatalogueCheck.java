package io.recourse.classification;

import io.recourse.evidence.Evidence;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The core of {@code recourse catalogue check [--rules FILE] [--fixtures FILE]}:
 * validates a rule file and runs fixtures through it, reporting per-rule hit counts and every
 * mismatch (a wrong code, or a wrong rule where the fixture names one). Turning fixture lines into {@link Evidence} is the caller's job (the evidence
 * assembler), so this stays free of frame parsing.
 */
public final class CatalogueCheck {

    private CatalogueCheck() {
    }

    /**
     * One fixture.
     *
     * @param id       the fixture's id (corpus {@code id})
     * @param evidence the turn's evidence
     * @param expected the expected code, or {@code null} when the turn must not be classified
     * @param ruleId   the rule that must decide it ({@code expected.rule_id} of the fixture line), or
     *                 {@code null} when only the code is asserted
     */
    public record Fixture(String id, Evidence evidence, Code expected, String ruleId) {

        /** A fixture that asserts the code only. */
        public Fixture(String id, Evidence evidence, Code expected) {
            this(id, evidence, expected, null);
        }
    }

    /** A fixture whose classification differs from its expectation ({@code null} = no classification). */
    public record Mismatch(String fixtureId, Code expected, Code actual, String ruleId, String expectedRuleId) {

        /** A code mismatch. */
        public Mismatch(String fixtureId, Code expected, Code actual, String ruleId) {
            this(fixtureId, expected, actual, ruleId, null);
        }

        @Override
        public String toString() {
            return fixtureId + ": expected " + (expected == null ? "no classification" : expected.wire())
                    + (expectedRuleId == null ? "" : " by " + expectedRuleId)
                    + ", got " + (actual == null ? "no classification" : actual.wire() + " by " + ruleId);
        }
    }

    /**
     * The outcome of a check.
     *
     * @param hitsPerRule every rule and fallback id (priority order, fallbacks last) → number of
     *                    fixtures it decided
     */
    public record Report(String catalogueVersion, int fixtures, Map<String, Integer> hitsPerRule,
                         List<Mismatch> mismatches) {

        public Report {
            hitsPerRule = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(hitsPerRule));
            mismatches = List.copyOf(mismatches);
        }

        /** True when every fixture got its expected answer. */
        public boolean ok() {
            return mismatches.isEmpty();
        }
    }

    /**
     * Validates {@code ruleFileJson} and runs {@code fixtures} through it.
     *
     * @throws CatalogueException naming the rule when the file fails validation
     */
    public static Report run(String ruleFileJson, List<Fixture> fixtures) {
        return run(Catalogue.parse(ruleFileJson), fixtures);
    }

    /** Runs {@code fixtures} through {@code catalogue}. */
    public static Report run(Catalogue catalogue, List<Fixture> fixtures) {
        Classifier classifier = new Classifier(catalogue);
        Map<String, Integer> hits = new LinkedHashMap<>();
        catalogue.rules().forEach(r -> hits.put(r.id(), 0));
        hits.put(catalogue.preStartFallback().ruleId(), 0);
        hits.put(catalogue.postStartFallback().ruleId(), 0);
        List<Mismatch> mismatches = new ArrayList<>();
        for (Fixture f : fixtures) {
            Optional<Classification> c = classifier.classify(f.evidence());
            c.ifPresent(x -> hits.merge(x.ruleId(), 1, Integer::sum));
            Code actual = c.map(Classification::code).orElse(null);
            String rule = c.map(Classification::ruleId).orElse(null);
            if (actual != f.expected() || f.ruleId() != null && !f.ruleId().equals(rule)) {
                mismatches.add(new Mismatch(f.id(), f.expected(), actual, rule, f.ruleId()));
            }
        }
        return new Report(catalogue.version(), fixtures.size(), hits, mismatches);
    }
}
