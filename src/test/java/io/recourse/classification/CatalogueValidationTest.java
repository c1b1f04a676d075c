package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Load-time validation of rule files (DESIGN §5.2): every error names the rule. */
public class CatalogueValidationTest {

    private static final String RULE_A = """
            {"id":"test.a.v1","priority":10,"why":"a","when":[{"in":["error.message"],"literal_ci":"boom"}],
             "code":"provider_unavailable","class":"transient","confidence":"high","scope":"provider"}""";

    private static String file(String... rules) {
        return "{\"catalogue_version\":\"test-errors.v1\",\"rules\":[" + String.join(",", rules) + "]}";
    }

    private static String rule(String id, int priority, String extra) {
        return """
                {"id":"%s","priority":%d,"why":"w","when":[{"in":["error.message"],"literal_ci":"x"}],
                 "code":"rate_limited","class":"transient","confidence":"high","scope":"provider"%s}"""
                .formatted(id, priority, extra);
    }

    @Test
    public void theShippedCatalogueLoadsWithItsVersion() {
        Catalogue c = Catalogue.loadDefault();

        assertThat(c.version()).isEqualTo("provider-errors.v2");
        assertThat(c.rules()).isNotEmpty();
        assertThat(c.notes()).anyMatch(n -> n.contains("Quota vs rate limit vs subscription"));
    }

    @Test
    public void theShippedRulesAreOrderedByDescendingPriority() {
        var rules = Catalogue.loadDefault().rules();

        for (int i = 1; i < rules.size(); i++) {
            assertThat(rules.get(i - 1).priority()).isGreaterThan(rules.get(i).priority());
        }
    }

    @Test
    public void aDuplicateIdIsRejectedNamingTheRule() {
        assertThatThrownBy(() -> Catalogue.parse(file(rule("test.dup.v1", 1, ""), rule("test.dup.v1", 2, ""))))
                .isInstanceOf(CatalogueException.class)
                .hasMessageContaining("'test.dup.v1'").hasMessageContaining("duplicate id");
    }

    @Test
    public void aPriorityTieIsRejectedNamingBothRules() {
        assertThatThrownBy(() -> Catalogue.parse(file(rule("test.one.v1", 5, ""), rule("test.two.v1", 5, ""))))
                .isInstanceOf(CatalogueException.class)
                .hasMessageContaining("'test.two.v1'").hasMessageContaining("ties with rule 'test.one.v1'");
    }

    @Test
    public void anUnlessListDisqualifiesAValueMatchingAnyOfItsParts() {
        String listed = RULE_A.replace("\"literal_ci\":\"boom\"}",
                "\"literal_ci\":\"boom\",\"unless\":[{\"regex_ci\":\"^quoted\"},{\"regex_ci\":\"you\\\\s{1,3}asked\"}]}");

        var unless = Catalogue.parse(file(listed)).rules().get(0).conditions().get(0).unless();

        assertThat(unless.test("Quoted: boom")).isTrue();
        assertThat(unless.test("boom, as you  asked")).isTrue();
        assertThat(unless.test("boom: the server failed")).isFalse();
    }

    @Test
    public void anUnlessListOfMixedOrNonRegexPartsIsRejectedNamingTheRule() {
        String mixed = RULE_A.replace("\"literal_ci\":\"boom\"}",
                "\"literal_ci\":\"boom\",\"unless\":[{\"regex_ci\":\"a\"},{\"regex\":\"b\"}]}");
        String literal = RULE_A.replace("\"literal_ci\":\"boom\"}",
                "\"literal_ci\":\"boom\",\"unless\":[{\"literal\":\"a\"}]}");
        String empty = RULE_A.replace("\"literal_ci\":\"boom\"}", "\"literal_ci\":\"boom\",\"unless\":[]}");

        assertThatThrownBy(() -> Catalogue.parse(file(mixed)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("unless[1]: ").hasMessageContaining("of one kind");
        assertThatThrownBy(() -> Catalogue.parse(file(literal)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("regex or regex_ci matches only");
        assertThatThrownBy(() -> Catalogue.parse(file(empty)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("1 to 4 regex matches");
    }

    @Test
    public void aRegexListHoldsWhenAnyOfItsRegexesFinds() {
        String listed = RULE_A.replace("\"literal_ci\":\"boom\"", "\"regex_ci\":[\"^quoted\",\"you\\\\s{1,3}asked\"]");

        var match = Catalogue.parse(file(listed)).rules().get(0).conditions().get(0).match();

        assertThat(match.patterns()).hasSize(2);
        assertThat(match.test("Quoted: boom")).isTrue();
        assertThat(match.test("boom, as YOU  asked")).isTrue();
        assertThat(match.test("boom: the server failed")).isFalse();
    }

    @Test
    public void aRegexListWithABadElementIsRejectedNamingTheRuleAndTheIndex() {
        String tooLong = "a".repeat(RegexSafety.MAX_LENGTH + 1);
        String longOne = RULE_A.replace("\"literal_ci\":\"boom\"", "\"regex\":[\"boom\",\"" + tooLong + "\"]");
        String unsafe = RULE_A.replace("\"literal_ci\":\"boom\"", "\"regex_ci\":[\"(a+)+\",\"boom\"]");
        String notText = RULE_A.replace("\"literal_ci\":\"boom\"", "\"regex\":[\"boom\",5]");
        String empty = RULE_A.replace("\"literal_ci\":\"boom\"", "\"regex\":[]");
        String five = RULE_A.replace("\"literal_ci\":\"boom\"", "\"regex\":[\"a\",\"b\",\"c\",\"d\",\"e\"]");
        String inUnless = RULE_A.replace("\"literal_ci\":\"boom\"}",
                "\"literal_ci\":\"boom\",\"unless\":[{\"regex\":\"ok\"},{\"regex\":\"x{2,}\"}]}");

        assertThatThrownBy(() -> Catalogue.parse(file(longOne)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("regex[1]: ").hasMessageContaining("longer than 2000");
        assertThatThrownBy(() -> Catalogue.parse(file(unsafe)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("regex_ci[0]: regex /(a+)+/ rejected");
        assertThatThrownBy(() -> Catalogue.parse(file(notText)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("regex[1]: a list element must be a non-empty string");
        assertThatThrownBy(() -> Catalogue.parse(file(empty)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("a 'regex' list holds 1 to 4 regexes, got 0");
        assertThatThrownBy(() -> Catalogue.parse(file(five)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("a 'regex' list holds 1 to 4 regexes, got 5");
        assertThatThrownBy(() -> Catalogue.parse(file(inUnless)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("unless[1]: regex /x{2,}/ rejected");
    }

    @Test
    public void aRegexListIsDescribedAsItsRegexesJoinedByOr() {
        String listed = RULE_A.replace("\"literal_ci\":\"boom\"", "\"regex\":[\"boom\",\"bang\"]");

        var condition = Catalogue.parse(file(listed)).rules().get(0).conditions().get(0);

        assertThat(condition.describe()).isEqualTo("error.message ~ /boom/ or /bang/");
    }

    @Test
    public void anUnknownCodeIsRejectedNamingTheRule() {
        String bad = RULE_A.replace("\"provider_unavailable\"", "\"billing_required\"");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("unknown code 'billing_required'");
    }

    @Test
    public void aCodeWithoutAClassIsRejectedNamingTheRule() {
        String bad = RULE_A.replace(",\"class\":\"transient\"", "");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("has no class");
    }

    @Test
    public void aClassThatDisagreesWithTheTaxonomyIsRejected() {
        String bad = RULE_A.replace("\"class\":\"transient\"", "\"class\":\"hard\"");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("provider_unavailable is transient");
    }

    @Test
    public void aFallbackCodeOnARuleIsRejected() {
        String bad = RULE_A.replace("\"provider_unavailable\",\"class\":\"transient\"",
                "\"agent_runtime_error\",\"class\":\"unclassified\"");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("fallback code");
    }

    @Test
    public void anUnknownSignalKindIsRejectedNamingTheRule() {
        String bad = RULE_A.replace("error.message", "chunk.text");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("unknown signal kind 'chunk'");
    }

    @Test
    public void anUnknownFieldOfAKindIsRejectedNamingTheRule() {
        String bad = RULE_A.replace("error.message", "stderr.text");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("unknown field 'text' of kind stderr");
    }

    @Test
    public void httpHeadersAreFieldsNamedByTheirLowerCaseName() {
        String ok = RULE_A.replace("error.message", "http.header.retry-after");

        assertThat(Catalogue.parse(file(ok)).rules()).hasSize(1);
    }

    @Test
    public void aNestedQuantifierIsRejectedNamingTheRule() {
        String bad = RULE_A.replace("\"literal_ci\":\"boom\"", "\"regex\":\"(a{1,3}){1,9}\"");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("nested quantifier");
    }

    @Test
    public void anUnboundedQuantifierIsRejectedNamingTheRule() {
        String bad = RULE_A.replace("\"literal_ci\":\"boom\"", "\"regex\":\"rate.*limit\"");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("unbounded quantifier");
    }

    @Test
    public void aRegexThatDoesNotCompileIsRejectedNamingTheRule() {
        String bad = RULE_A.replace("\"literal_ci\":\"boom\"", "\"regex\":\"[a-\"");

        assertThatThrownBy(() -> Catalogue.parse(file(bad))).hasMessageContaining("'test.a.v1'");
    }

    @Test
    public void aConditionWithTwoMatchesIsRejected() {
        String bad = RULE_A.replace("\"literal_ci\":\"boom\"", "\"literal_ci\":\"boom\",\"regex\":\"boom\"");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("exactly one of");
    }

    @Test
    public void anUnknownHintExtractorIsRejectedNamingTheRule() {
        assertThatThrownBy(() -> Catalogue.parse(file(rule("test.h.v1", 1, ",\"hints\":[\"crystal_ball\"]"))))
                .hasMessageContaining("'test.h.v1'").hasMessageContaining("unknown hint extractor 'crystal_ball'");
    }

    @Test
    public void hintsOnACodeThatCarriesNoneAreRejected() {
        String bad = RULE_A.replace("\"scope\":\"provider\"", "\"scope\":\"provider\",\"hints\":[\"retry_after_header\"]");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("only extracted for rate_limited and quota_limited");
    }

    @Test
    public void aMisspelledKeyIsRejectedNamingTheRule() {
        String bad = RULE_A.replace("\"priority\"", "\"prority\":1,\"priority\"");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("unknown key 'prority'");
    }

    @Test
    public void aMissingPriorityIsRejectedNamingTheRule() {
        String bad = RULE_A.replace("\"priority\":10,", "");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("priority");
    }

    @Test
    public void anIdWithoutAVersionIsRejected() {
        String bad = RULE_A.replace("test.a.v1", "test.a");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a'").hasMessageContaining("malformed id");
    }

    @Test
    public void aRuleWithOnlyNegatedConditionsIsRejected() {
        String bad = RULE_A.replace("\"literal_ci\":\"boom\"", "\"literal_ci\":\"boom\",\"not\":true");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("positive condition");
    }

    @Test
    public void anUnknownFieldSetIsRejected() {
        String bad = RULE_A.replace("\"error.message\"", "\"@nowhere\"");

        assertThatThrownBy(() -> Catalogue.parse(file(bad)))
                .hasMessageContaining("'test.a.v1'").hasMessageContaining("unknown field set '@nowhere'");
    }

    @Test
    public void aFileThatIsNotJsonIsRejected() {
        assertThatThrownBy(() -> Catalogue.parse("{rules:")).isInstanceOf(CatalogueException.class)
                .hasMessageContaining("not valid JSON");
    }

    @Test
    public void aMalformedCatalogueVersionIsRejected() {
        assertThatThrownBy(() -> Catalogue.parse(file(RULE_A).replace("test-errors.v1", "latest")))
                .hasMessageContaining("catalogue_version");
    }

    @Test
    void observedCaseIdsAreAcceptedAndValidated() {
        Catalogue ok = Catalogue.parse(file(rule("test.o.v2", 1, ",\"observed\":[\"obs-claude-012\",\"obs-others-107\"]")));

        assertThat(ok.rules()).hasSize(1);
        assertThatThrownBy(() -> Catalogue.parse(file(rule("test.o.v2", 1, ",\"observed\":[\"claude-012\"]"))))
                .isInstanceOf(CatalogueException.class).hasMessageContaining("test.o.v2").hasMessageContaining("observed");
        assertThatThrownBy(() -> Catalogue.parse(file(rule("test.o.v2", 1, ",\"observed\":\"obs-claude-012\""))))
                .isInstanceOf(CatalogueException.class).hasMessageContaining("must be an array");
        assertThatThrownBy(() -> Catalogue.parse(file(rule("test.o.v2", 1, ",\"observed\":[\"obs-a-001\",\"obs-a-001\"]"))))
                .isInstanceOf(CatalogueException.class).hasMessageContaining("twice");
    }

    @Test
    void aShapeWithAnUnknownKeyIsRejectedNamingIt() {
        String shapes = ",\"surfaced_failure_shapes\":[{\"id\":\"shape.x.v2\",\"agentz\":[\"claude\"],"
                + "\"when\":{\"in\":[\"final_chunk.text\"],\"regex\":\"^API Error\"}}]}";
        String json = file(RULE_A);
        String withShape = json.substring(0, json.length() - 1) + shapes;

        assertThatThrownBy(() -> Catalogue.parse(withShape)).isInstanceOf(CatalogueException.class)
                .hasMessageContaining("shape.x.v2").hasMessageContaining("agentz");
    }

    @Test
    void everyChangedOrNewShippedRuleNamesTheObservedCasesItCameFrom() {
        Catalogue shipped = Catalogue.loadDefault();

        assertThat(shipped.rules()).filteredOn(r -> r.id().endsWith(".v2")).isNotEmpty();
        assertThat(Catalogue.loadResource(Catalogue.V1_RESOURCE).version()).isEqualTo("provider-errors.v1");
    }
}
