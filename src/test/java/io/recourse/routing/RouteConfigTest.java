package io.recourse.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Route configuration (DESIGN §7.1): the default document, the one validator, the one legacy normalizer, JSON. */
public class RouteConfigTest {

    private static String doc(String candidate) {
        return """
                {"dynamic_profile_id": "dyn", "version": 1, "fallback_enabled": true,
                 "candidates": [%s]}""".formatted(candidate);
    }

    private static String candidate(String id, String policies) {
        return """
                {"execution_profile_id": "%s", "provider_id": "openai", "model_id": "gpt-5"%s}"""
                .formatted(id, policies == null ? "" : ", " + policies);
    }

    private static List<String> fields(RouteConfigValidation v) {
        return v.errors().stream().map(RouteConfigError::field).toList();
    }

    @Test
    public void theDefaultDocumentReproducesTheSeedsOfficeSchedule() {
        RouteConfig cfg = RoutingFixtures.threeCandidates();
        ClassPolicy t = cfg.candidates().get(0).policies().transientPolicy();
        ClassPolicy h = cfg.candidates().get(0).policies().hardPolicy();
        assertThat(t).isEqualTo(new ClassPolicy(new RetryPolicy(true, 3, 5), new WaitForReset(false, 0), OnExhausted.SKIP));
        assertThat(h).isEqualTo(new ClassPolicy(new RetryPolicy(false, 0, 0), new WaitForReset(false, 0), OnExhausted.SKIP));
        assertThat(cfg.fallbackEnabled()).isTrue();
        assertThat(RouteConfigValidator.validate(cfg)).isEmpty();
        RoutingPolicy p = RoutingFixtures.router(cfg).policy();
        assertThat(List.of(1, 2, 3)).map(o -> p.delay(t.retry(), "r", 1, o, null, RoutingFixtures.T0).toSeconds())
                .containsExactly(5L, 10L, 20L);
    }

    @Test
    public void aCandidateWithoutPoliciesGetsTheDefaultSchedule() {
        RouteConfigValidation v = RouteConfigJson.read(doc(candidate("a", null)));
        assertThat(v.isValid()).isTrue();
        assertThat(v.config().candidates().get(0).policies()).isEqualTo(Policies.DEFAULT);
    }

    @Test
    public void theNormalizedDocumentRoundTripsThroughJson() {
        RouteConfig cfg = RoutingFixtures.threeCandidates().withFallbackEnabled(false);
        String json = RouteConfigJson.write(cfg);
        assertThat(json).contains("\"dynamic_profile_id\"", "\"wait_for_reset\"", "\"max_wait_seconds\"", "\"on_exhausted\":\"skip\"",
                "\"transient\"");
        assertThat(RouteConfigJson.read(json).config()).isEqualTo(cfg);
    }

    @Test
    public void validationErrorsNameTheField() {
        String p = """
                "policies": {"transient": {"retry": {"enabled": true, "max_retries": 11, "initial_interval_seconds": 0},
                                           "wait_for_reset": {"enabled": false, "max_wait_seconds": 5}, "on_exhausted": "skip"},
                             "hard": {"retry": {"enabled": false, "max_retries": 0, "initial_interval_seconds": 0},
                                      "wait_for_reset": {"enabled": true, "max_wait_seconds": 604801}, "on_exhausted": "stop"}}""";
        String json = doc(candidate("a", null) + "," + candidate("b", null) + "," + candidate("c", p));
        RouteConfigValidation v = RouteConfigJson.read(json);
        assertThat(fields(v)).containsExactly(
                "candidates[2].policies.transient.retry.max_retries",
                "candidates[2].policies.transient.retry.initial_interval_seconds",
                "candidates[2].policies.transient.wait_for_reset.max_wait_seconds",
                "candidates[2].policies.hard.wait_for_reset.max_wait_seconds");
    }

    @Test
    public void missingIdentityAndWrongVersionAreRejected() {
        RouteConfig bad = new RouteConfig(" ", 2, true, List.of(new Candidate("x", "", "m", Policies.DEFAULT),
                new Candidate("x", "p", "m", Policies.DEFAULT)));
        assertThat(RouteConfigValidator.validate(bad)).extracting(RouteConfigError::field).containsExactly(
                "dynamic_profile_id", "version", "candidates[0].provider_id", "candidates[1].execution_profile_id");
    }

    @Test
    public void anUnknownFieldIsIgnoredAndReportedNotFatal() {
        RouteConfigValidation v = RouteConfigJson.read(doc(candidate("a", "\"colour\": {\"r\": [1]}"))
                .replace("\"version\": 1,", "\"version\": 1, \"owner\": \"ops\","));
        assertThat(v.isValid()).isTrue();
        assertThat(v.unknownFields()).containsExactlyInAnyOrder("owner", "candidates[0].colour");
        assertThat(v.config().candidates()).hasSize(1);
    }

    @Test
    public void typesAreExactNoStringToNumberNoFractionForAnInteger() {
        String retry = "\"policies\": {\"transient\": {\"retry\": {\"enabled\": true, \"max_retries\": %s, "
                + "\"initial_interval_seconds\": %s}, \"wait_for_reset\": {\"enabled\": false, \"max_wait_seconds\": 0}, "
                + "\"on_exhausted\": \"skip\"}}";
        assertThat(RouteConfigJson.read(doc(candidate("a", retry.formatted("3", "5")))).isValid()).isTrue();
        assertThat(fields(RouteConfigJson.read(doc(candidate("a", retry.formatted("3", "2.5"))))))
                .containsExactly("candidates[0].policies.transient.retry.initial_interval_seconds");
        assertThat(fields(RouteConfigJson.read(doc(candidate("a", retry.formatted("3", "\"5\""))))))
                .containsExactly("candidates[0].policies.transient.retry.initial_interval_seconds");
        assertThat(fields(RouteConfigJson.read(doc(candidate("a", retry.formatted("3.0", "5"))))))
                .containsExactly("candidates[0].policies.transient.retry.max_retries");
        assertThat(fields(RouteConfigJson.read(doc(candidate("a", null)).replace("\"version\": 1", "\"version\": \"1\""))))
                .containsExactly("version");
        assertThat(fields(RouteConfigJson.read(doc(candidate("a", null)).replace("\"fallback_enabled\": true", "\"fallback_enabled\": 1"))))
                .containsExactly("fallback_enabled");
        assertThat(fields(RouteConfigJson.read(doc(candidate("a", null)).replace("\"fallback_enabled\": true", "\"fallback_enabled\": \"true\""))))
                .containsExactly("fallback_enabled");
        assertThat(fields(RouteConfigJson.read(doc(candidate("a", null)).replace("\"openai\"", "7"))))
                .containsExactly("candidates[0].provider_id");
    }

    @Test
    public void duplicateKeysAndInvalidUtf8AreRejected() {
        assertThat(fields(RouteConfigJson.read(doc(candidate("a", null)).replace("\"version\": 1,", "\"version\": 1, \"version\": 1,"))))
                .containsExactly("$");
        assertThat(fields(RouteConfigJson.read(doc(candidate("a", "\"model_id\": \"other\"")))))
                .containsExactly("$");
        byte[] latin1 = doc(candidate("caf\u00e9", null)).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(fields(RouteConfigJson.read(latin1))).containsExactly("$");
        assertThat(RouteConfigJson.read(doc(candidate("caf\u00e9", null)).getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .config().candidates().get(0).executionProfileId()).isEqualTo("caf\u00e9");
    }

    @Test
    public void countsAndLengthsAreBounded() {
        String many = String.join(", ", java.util.stream.IntStream.range(0, 33).mapToObj(i -> candidate("c" + i, null)).toList());
        assertThat(fields(RouteConfigJson.read(doc(many)))).containsExactly("candidates");
        String max = String.join(", ", java.util.stream.IntStream.range(0, 32).mapToObj(i -> candidate("c" + i, null)).toList());
        assertThat(RouteConfigJson.read(doc(max)).isValid()).isTrue();
        assertThat(fields(RouteConfigJson.read(doc(candidate("x".repeat(257), null))))).containsExactly("candidates[0].execution_profile_id");
        assertThat(RouteConfigJson.read(doc(candidate("x".repeat(256), null))).isValid()).isTrue();
        assertThat(fields(RouteConfigJson.read(doc(candidate("a\\u0000b", null))))).containsExactly("candidates[0].execution_profile_id");
        byte[] huge = doc(candidate("a", "\"note\": \"" + "x".repeat(RouteConfigJson.MAX_DOCUMENT_BYTES) + "\""))
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(fields(RouteConfigJson.read(huge))).containsExactly("$");
    }

    @Test
    public void aWrongTypeIsAFieldAddressedError() {
        assertThat(fields(RouteConfigJson.read(doc(candidate("a",
                "\"policies\": {\"hard\": {\"retry\": {\"enabled\": false, \"max_retries\": 0, \"initial_interval_seconds\": 0}, "
                        + "\"wait_for_reset\": {\"enabled\": false, \"max_wait_seconds\": 0}, \"on_exhausted\": \"later\"}}")))))
                .containsExactly("candidates[0].policies.hard.on_exhausted");
        assertThat(fields(RouteConfigJson.read("[1]"))).containsExactly("$");
        assertThat(fields(RouteConfigJson.read("{not json"))).containsExactly("$");
    }

    @Test
    public void legacyTryNextIsAnImmediateSkip() {
        RouteConfigValidation v = RouteConfigJson.read(doc(candidate("a", "\"policies\": {\"hard\": \"try_next\"}")));
        assertThat(v.config().candidates().get(0).policies().hardPolicy())
                .isEqualTo(new ClassPolicy(RetryPolicy.OFF, WaitForReset.OFF, OnExhausted.SKIP));
    }

    @Test
    public void legacyStopIsAnImmediateStop() {
        RouteConfigValidation v = RouteConfigJson.read(doc(candidate("a", "\"legacy_actions\": {\"transient\": \"stop\"}")));
        assertThat(v.config().candidates().get(0).policies().transientPolicy())
                .isEqualTo(new ClassPolicy(RetryPolicy.OFF, WaitForReset.OFF, OnExhausted.STOP));
        assertThat(v.config().candidates().get(0).policies().hardPolicy()).isEqualTo(ClassPolicy.DEFAULT_HARD);
    }

    @Test
    public void legacyRetrySameIsOneRetryAfter5SecondsThenStop() {
        RouteConfigValidation v = RouteConfigJson.read(doc(candidate("a",
                "\"policies\": {\"transient\": {\"action\": \"retry_same\"}}")));
        assertThat(v.config().candidates().get(0).policies().transientPolicy())
                .isEqualTo(new ClassPolicy(RetryPolicy.of(1, 5), WaitForReset.OFF, OnExhausted.STOP));
    }

    @Test
    public void legacyEntriesKeyedByCodesOfOneClassThatAgreeNormalizeOnce() {
        RouteConfigValidation v = RouteConfigJson.read(doc(candidate("a",
                "\"legacy_actions\": {\"model_capacity\": \"try_next\", \"provider_overloaded\": \"try_next\"}")));
        assertThat(v.config().candidates().get(0).policies().transientPolicy().onExhausted()).isEqualTo(OnExhausted.SKIP);
        assertThat(v.config().candidates().get(0).policies().transientPolicy().retry()).isEqualTo(RetryPolicy.OFF);
    }

    @Test
    public void legacyEntriesOfOneClassThatDisagreeAreAConflict() {
        RouteConfigValidation v = RouteConfigJson.read(doc(candidate("a",
                "\"legacy_actions\": {\"model_capacity\": \"try_next\", \"network_unavailable\": \"retry_same\"}")));
        assertThat(fields(v)).containsExactly("candidates[0].legacy_actions");
        assertThat(v.reason()).contains("conflict");
    }

    @Test
    public void anExplicitPolicyAndALegacyActionForTheSameClassAreAConflict() {
        String explicit = """
                "policies": {"hard": {"retry": {"enabled": false, "max_retries": 0, "initial_interval_seconds": 0},
                                      "wait_for_reset": {"enabled": false, "max_wait_seconds": 0}, "on_exhausted": "skip"}},
                "legacy_actions": {"quota_limited": "stop"}""";
        RouteConfigValidation v = RouteConfigJson.read(doc(candidate("a", explicit)));
        assertThat(fields(v)).containsExactly("candidates[0].policies.hard");
    }

    @Test
    public void aLegacyActionNextToPolicyFieldsAndUnknownActionsOrKeysAreErrors() {
        assertThat(fields(RouteConfigJson.read(doc(candidate("a",
                "\"policies\": {\"transient\": {\"action\": \"stop\", \"on_exhausted\": \"skip\"}}")))))
                .containsExactly("candidates[0].policies.transient");
        assertThat(fields(RouteConfigJson.read(doc(candidate("a", "\"policies\": {\"hard\": \"retry_forever\"}")))))
                .containsExactly("candidates[0].policies.hard");
        assertThat(fields(RouteConfigJson.read(doc(candidate("a", "\"legacy_actions\": {\"task_error\": \"stop\"}")))))
                .containsExactly("candidates[0].legacy_actions.task_error");
    }

    @Test
    public void thereIsOneLegacyNormalizerAndItIsTheOnlyMapperOfLegacyActions_design12item12() {
        // every legacy action maps through LegacyPolicyNormalizer.fromLegacyAction, whichever form carried it
        for (String action : List.of("try_next", "stop", "retry_same")) {
            ClassPolicy want = LegacyPolicyNormalizer.fromLegacyAction(action);
            assertThat(RouteConfigJson.read(doc(candidate("a", "\"policies\": {\"transient\": \"" + action + "\"}")))
                    .config().candidates().get(0).policies().transientPolicy()).isEqualTo(want);
            assertThat(RouteConfigJson.read(doc(candidate("a", "\"policies\": {\"transient\": {\"action\": \"" + action + "\"}}")))
                    .config().candidates().get(0).policies().transientPolicy()).isEqualTo(want);
            assertThat(RouteConfigJson.read(doc(candidate("a", "\"legacy_actions\": {\"transient\": \"" + action + "\"}")))
                    .config().candidates().get(0).policies().transientPolicy()).isEqualTo(want);
            assertThat(RouteConfigJson.read(doc(candidate("a", "\"legacy_actions\": {\"rate_limited\": \"" + action + "\"}")))
                    .config().candidates().get(0).policies().transientPolicy()).isEqualTo(want);
        }
        assertThat(LegacyPolicyNormalizer.fromLegacyAction("retry_forever")).isNull();
    }
}
