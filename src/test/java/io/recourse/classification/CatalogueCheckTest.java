package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recourse.classification.SignatureFixtures.Line;
import io.recourse.taxonomy.Code;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The core of {@code recourse catalogue check}. */
public class CatalogueCheckTest {

    private static List<CatalogueCheck.Fixture> fixtures(String resource) {
        return SignatureFixtures.read(resource).stream().map(SignatureFixtures::checkFixture).toList();
    }

    private static String shippedRules() throws IOException {
        try (InputStream in = getResource(Catalogue.DEFAULT_RESOURCE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static InputStream getResource(String name) {
        return CatalogueCheckTest.class.getClassLoader().getResourceAsStream(name);
    }

    @Test
    public void theShippedRulesHaveNoMismatchOnTheCorpusAndTheCatalogueFixtures() throws IOException {
        List<CatalogueCheck.Fixture> all = new ArrayList<>(fixtures("corpus/signatures.jsonl"));
        all.addAll(fixtures(CatalogueFixturesTest.FIXTURES));

        CatalogueCheck.Report report = CatalogueCheck.run(shippedRules(), all);

        assertThat(report.mismatches()).isEmpty();
        assertThat(report.ok()).isTrue();
        assertThat(report.fixtures()).isEqualTo(all.size());
        assertThat(report.catalogueVersion()).isEqualTo("provider-errors.v2");
    }

    @Test
    public void theReportCountsHitsForEveryRuleAndBothFallbacks() throws IOException {
        CatalogueCheck.Report report = CatalogueCheck.run(shippedRules(), fixtures("corpus/signatures.jsonl"));

        assertThat(report.hitsPerRule().keySet())
                .containsAll(Catalogue.loadDefault().rules().stream().map(Rule::id).toList())
                .contains("fallback.pre_start.v1", "fallback.post_start.v1");
        assertThat(report.hitsPerRule().get("anthropic.overloaded.529.v1")).isPositive();
        assertThat(report.hitsPerRule().values().stream().mapToInt(Integer::intValue).sum())
                .isEqualTo((int) SignatureFixtures.read("corpus/signatures.jsonl").stream().filter(l -> l.expected() != null).count());
    }

    @Test
    public void aFixtureThatGetsAnotherCodeIsReportedAsAMismatchWithItsId() {
        Line line = SignatureFixtures.read("corpus/signatures.jsonl").get(5); // S006: 529 -> provider_overloaded
        CatalogueCheck.Fixture wrong = new CatalogueCheck.Fixture("S006-wrong", SignatureFixtures.failedTurn(line), Code.RATE_LIMITED);

        CatalogueCheck.Report report = CatalogueCheck.run(Catalogue.loadDefault(), List.of(wrong));

        assertThat(report.ok()).isFalse();
        assertThat(report.mismatches()).singleElement().satisfies(m -> {
            assertThat(m.fixtureId()).isEqualTo("S006-wrong");
            assertThat(m.actual()).isEqualTo(Code.PROVIDER_OVERLOADED);
            assertThat(m.toString()).contains("expected rate_limited").contains("anthropic.overloaded.http_529.v1");
        });
    }

    @Test
    public void anInvalidRuleFileFailsTheCheckNamingTheRule() {
        String bad = """
                {"catalogue_version":"x-errors.v1","rules":[{"id":"x.bad.v1","priority":1,"why":"w",
                 "when":[{"in":["stderr.line"],"regex":"(a+)+"}],"code":"rate_limited","class":"transient",
                 "confidence":"high","scope":"provider"}]}""";

        assertThatThrownBy(() -> CatalogueCheck.run(bad, List.of())).hasMessageContaining("x.bad.v1");
    }
}
