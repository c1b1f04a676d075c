package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every rule of the shipped catalogue, fallbacks included, decides at least one fixture of the
 * shipped catalogue fixtures plus the corpus signatures (DESIGN §5.2: "fixture tests cover
 * positive, negative, collision, correlation and redaction cases for every rule"). A rule that no
 * fixture reaches is either untested or shadowed by a higher-priority rule; the failure names it.
 * That each win is the fixture's expected code (no mismatch) is {@link CatalogueCheckTest}'s job.
 */
public class CatalogueCoverageTest {

    private static final String CORPUS = "corpus/signatures.jsonl";

    private static CatalogueCheck.Report checkShippedFixtures() {
        List<CatalogueCheck.Fixture> all = new ArrayList<>();
        Stream.of(CORPUS, CatalogueFixturesTest.FIXTURES)
                .forEach(resource -> SignatureFixtures.read(resource).stream()
                        .map(SignatureFixtures::checkFixture)
                        .forEach(all::add));
        return CatalogueCheck.run(Catalogue.loadDefault(), all);
    }

    @Test
    public void everyShippedRuleAndFallbackWinsAtLeastOneFixture() {
        CatalogueCheck.Report report = checkShippedFixtures();

        List<String> withoutAHit = report.hitsPerRule().entrySet().stream()
                .filter(e -> e.getValue() == 0)
                .map(Map.Entry::getKey)
                .toList();

        assertThat(withoutAHit).as("rules that win no fixture of %s + %s", CORPUS, CatalogueFixturesTest.FIXTURES)
                .isEmpty();
    }

    @Test
    public void theCoverageCountsEveryShippedRuleAndBothFallbacks() {
        Catalogue shipped = Catalogue.loadDefault();

        CatalogueCheck.Report report = checkShippedFixtures();

        List<String> expectedIds = new ArrayList<>(shipped.rules().stream().map(Rule::id).toList());
        expectedIds.add(shipped.preStartFallback().ruleId());
        expectedIds.add(shipped.postStartFallback().ruleId());
        assertThat(report.hitsPerRule().keySet()).containsExactlyInAnyOrderElementsOf(expectedIds);
    }
}
