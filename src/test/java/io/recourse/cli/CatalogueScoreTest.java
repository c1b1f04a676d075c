package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.evidence.Outcome;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The arithmetic of {@code catalogue score} on a hand-made confusion whose every figure is known. */
public class CatalogueScoreTest {

    private static CatalogueScore.Item item(String id, Code truth, Outcome got, Code code, Confidence confidence) {
        return new CatalogueScore.Item(id, "dev",
                new CatalogueScore.Truth(truth == null ? Outcome.COMPLETED : Outcome.FAILED, truth),
                new CatalogueScore.Got(got, code, confidence, code == null ? null : "rule." + id));
    }

    private static final List<CatalogueScore.Item> ITEMS = List.of(
            item("a", Code.PROVIDER_OVERLOADED, Outcome.FAILED, Code.PROVIDER_OVERLOADED, Confidence.HIGH),
            item("b", Code.PROVIDER_OVERLOADED, Outcome.FAILED, Code.MODEL_CAPACITY, Confidence.HIGH),
            item("c", Code.QUOTA_LIMITED, Outcome.FAILED, Code.RATE_LIMITED, Confidence.HIGH),
            item("d", Code.AUTH_REQUIRED, Outcome.FAILED, Code.MISSING_CREDENTIALS, Confidence.HIGH),
            item("e", Code.RATE_LIMITED, Outcome.COMPLETED, null, null),
            item("f", Code.CONTEXT_WINDOW_EXCEEDED, Outcome.FAILED, Code.AGENT_RUNTIME_ERROR, Confidence.LOW),
            item("g", null, Outcome.COMPLETED, null, null),
            item("h", null, Outcome.FAILED, Code.PROVIDER_OVERLOADED, Confidence.HIGH),
            item("i", Code.NETWORK_UNAVAILABLE, null, null, null),
            item("j", Code.RATE_LIMITED, Outcome.FAILED, Code.PROVIDER_OVERLOADED, Confidence.MEDIUM));

    @Test
    public void everyFigureOfAKnownConfusion() {
        CatalogueScore.Report r = CatalogueScore.score(ITEMS);

        assertThat(r.cases()).isEqualTo(10);
        assertThat(r.failing()).isEqualTo(8);
        assertThat(r.exact()).isEqualTo(new CatalogueScore.Ratio(1, 8));
        assertThat(r.policy()).as("a, b (same transient group), d (hard stop), f (no policy)")
                .isEqualTo(new CatalogueScore.Ratio(4, 8));
        assertThat(r.errorClass()).as("a, b, d, j").isEqualTo(new CatalogueScore.Ratio(4, 8));
        assertThat(r.unsafe()).as("c (quota retried as a throttle), h (a completed turn retried); j is medium")
                .isEqualTo(2);
        assertThat(r.silent()).isEqualTo(1);
        assertThat(r.noOutcome()).isEqualTo(1);
        assertThat(r.negativesKept()).isEqualTo(new CatalogueScore.Ratio(1, 2));
        assertThat(r.mismatches()).extracting(CatalogueScore.Item::id).containsExactly("b", "c", "d", "e", "f", "h", "i", "j");
        assertThat(r.confusion()).containsExactly(
                new CatalogueScore.Cell("network_unavailable", "(no outcome)", 1),
                new CatalogueScore.Cell("provider_overloaded", "provider_overloaded", 1),
                new CatalogueScore.Cell("provider_overloaded", "model_capacity", 1),
                new CatalogueScore.Cell("rate_limited", "provider_overloaded", 1),
                new CatalogueScore.Cell("rate_limited", "(completed)", 1),
                new CatalogueScore.Cell("quota_limited", "rate_limited", 1),
                new CatalogueScore.Cell("auth_required", "missing_credentials", 1),
                new CatalogueScore.Cell("context_window_exceeded", "agent_runtime_error", 1),
                new CatalogueScore.Cell("(completed)", "provider_overloaded", 1),
                new CatalogueScore.Cell("(completed)", "(completed)", 1));
    }

    @Test
    public void ratiosPrintFourDecimalsAndNothingToMeasureIsNa() {
        assertThat(new CatalogueScore.Ratio(1, 8).toString()).isEqualTo("0.1250 (1/8)");
        assertThat(new CatalogueScore.Ratio(0, 0).toString()).isEqualTo("n/a (0/0)");
        assertThat(new CatalogueScore.Ratio(0, 0).rate()).isNaN();
    }

    @Test
    public void policyGroupsAreTheDocumentedOnes() {
        assertThat(List.of(Code.NETWORK_UNAVAILABLE, Code.PROVIDER_OVERLOADED, Code.PROVIDER_UNAVAILABLE, Code.MODEL_CAPACITY))
                .allSatisfy(c -> assertThat(CatalogueScore.PolicyGroup.of(c)).isEqualTo(CatalogueScore.PolicyGroup.PROVIDER_TRANSIENT));
        assertThat(CatalogueScore.PolicyGroup.of(Code.RATE_LIMITED)).isEqualTo(CatalogueScore.PolicyGroup.RATE_LIMITED);
        assertThat(CatalogueScore.PolicyGroup.of(Code.AGENT_TRANSPORT_LOST)).isEqualTo(CatalogueScore.PolicyGroup.TRANSPORT_LOST);
        assertThat(CatalogueScore.PolicyGroup.of(Code.QUOTA_LIMITED)).isEqualTo(CatalogueScore.PolicyGroup.QUOTA);
        assertThat(List.of(Code.AUTH_REQUIRED, Code.MISSING_CREDENTIALS, Code.SUBSCRIPTION_REQUIRED, Code.MODEL_UNAVAILABLE,
                Code.PROVIDER_NOT_CONFIGURED))
                .allSatisfy(c -> assertThat(CatalogueScore.PolicyGroup.of(c)).isEqualTo(CatalogueScore.PolicyGroup.HARD_STOP));
        for (Code c : Code.values()) {
            boolean noPolicy = c.errorClass() == io.recourse.taxonomy.ErrorClass.OUTSIDE
                    || c.errorClass() == io.recourse.taxonomy.ErrorClass.UNCLASSIFIED;
            assertThat(CatalogueScore.PolicyGroup.of(c) == CatalogueScore.PolicyGroup.NO_POLICY).as(c.wire()).isEqualTo(noPolicy);
        }
    }
}
