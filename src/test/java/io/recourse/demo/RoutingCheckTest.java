package io.recourse.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.avro.ParkedRun;
import io.recourse.avro.ProviderHealth;
import io.recourse.routing.streams.RoutingOutput;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The routing demo's check names what an observation lacks or gets wrong, and its sequence helpers compare as the report needs. */
class RoutingCheckTest {

    private static final Instant RESET = Instant.parse("2026-01-01T00:05:00Z");
    private static final Duration TOLERANCE = Duration.ofSeconds(2);
    private static final String SECOND = secondCandidateHealthKey();

    private static String secondCandidateHealthKey() {
        var second = RoutingDemoScenario.CANDIDATES.get(1);
        return RoutingDemoScenario.WORKSPACE + "/" + second.providerId() + "/provider/" + second.providerId();
    }

    private static void add(RoutingObserved o, RoutingOutput.Kind kind, String key, SpecificRecord value) {
        o.records.get(kind).add(new ConsumerRecord<>("t", 0, o.records.get(kind).size(), key, value));
    }

    private static ParkedRun parked(String run, Instant wakeAt) {
        return ParkedRun.newBuilder().setRunId(run).setWorkspaceId(RoutingDemoScenario.WORKSPACE)
                .setStatus("waiting_for_provider_capacity").setWakeAt(wakeAt).setCandidates(List.of()).setReason(null)
                .setParkedAt(RESET.minusSeconds(60)).build();
    }

    private static ProviderHealth quotaLimited(Instant retryAt) {
        var second = RoutingDemoScenario.CANDIDATES.get(1);
        return ProviderHealth.newBuilder().setWorkspaceId(RoutingDemoScenario.WORKSPACE).setProviderId(second.providerId())
                .setScope("provider").setScopeValue(second.providerId()).setState("degraded").setCode("quota_limited")
                .setRetryAt(retryAt).setLastFailureAt(null).setLastSuccessAt(null).setUpdatedAt(RESET.minusSeconds(60)).build();
    }

    @Test
    void an_empty_observation_misses_every_expectation_of_the_scenario() {
        List<String> diffs = RoutingCheck.check(new RoutingObserved(), RESET, 2, TOLERANCE);

        assertThat(diffs).contains("health " + SECOND + ": expected degraded quota_limited with retry_at ≈ the reset " + RESET,
                "run-01: expected parked once and woken exactly once, was parked 0 and released 0 times",
                "run-02: expected parked once and woken exactly once, was parked 0 and released 0 times");
        assertThat(diffs).anyMatch(d -> d.startsWith("run-01 route commands step 0: expected launch:") && d.contains("but was (nothing)"));
        assertThat(diffs).anyMatch(d -> d.startsWith("run-02 run states step 0: expected ") && d.contains("but was (nothing)"));
        assertThat(diffs).anyMatch(d -> d.startsWith("run-01 short retry 1: expected a delay of ") && d.endsWith("but none was scheduled"));
    }

    @Test
    void parks_and_the_quota_are_checked_against_the_reset_within_the_tolerance() {
        RoutingObserved o = new RoutingObserved();
        add(o, RoutingOutput.Kind.PROVIDER_HEALTH, SECOND, quotaLimited(RESET.plusSeconds(1)));
        add(o, RoutingOutput.Kind.PARKED_RUN, "ws-demo/run-01", parked("run-01", RESET.minusMillis(500)));
        add(o, RoutingOutput.Kind.PARKED_RUN, "ws-demo/run-01", null); // released
        add(o, RoutingOutput.Kind.PARKED_RUN, "ws-demo/run-02", parked("run-02", RESET.plusSeconds(30)));

        List<String> diffs = RoutingCheck.check(o, RESET, 2, TOLERANCE);

        assertThat(diffs).noneMatch(d -> d.contains("expected degraded quota_limited"));
        assertThat(diffs).noneMatch(d -> d.startsWith("run-01: expected parked once"));
        assertThat(diffs).contains("ws-demo/run-02 parked with wake_at " + RESET.plusSeconds(30) + ", expected ≈ the quota reset " + RESET,
                "run-02: expected parked once and woken exactly once, was parked 1 and released 0 times");
        assertThat(RoutingCheck.check(o, RESET.plusSeconds(10), 2, TOLERANCE))
                .as("a quota whose retry_at is not the reset").anyMatch(d -> d.contains("expected degraded quota_limited"));
    }

    @Test
    void collapse_drops_only_immediate_repeats() {
        List<String> seq = new ArrayList<>();
        for (String s : List.of("routing", "routing", "running", "routing", "routing")) {
            RoutingCheck.collapse(seq, s);
        }
        assertThat(seq).containsExactly("routing", "running", "routing");
    }

    @Test
    void first_difference_names_the_first_differing_step_once_and_nothing_when_equal() {
        List<String> diffs = new ArrayList<>();
        RoutingCheck.firstDifference(diffs, "same", List.of("a", "b"), List.of("a", "b"));
        RoutingCheck.firstDifference(diffs, "none", null, null);
        assertThat(diffs).isEmpty();

        RoutingCheck.firstDifference(diffs, "x", List.of("a", "b", "c"), List.of("a", "z", "q"));
        RoutingCheck.firstDifference(diffs, "y", List.of("a"), List.of("a", "extra"));
        assertThat(diffs).containsExactly("x step 1: expected b but was z (expected [a, b, c], was [a, z, q])",
                "y step 1: expected (nothing) but was extra (expected [a], was [a, extra])");
    }

    @Test
    void union_is_sorted_and_the_report_order_puts_attempts_first() {
        assertThat(RoutingCheck.union(Map.of("b", 1, "a", 2), Map.of("c", 3, "a", 4))).containsExactly("a", "b", "c");
        assertThat(List.of("recourse.office.route-commands", "recourse.office.run-state", "recourse.office.parked-runs",
                "recourse.office.provider-health", "recourse.office.route-attempts").stream().map(RoutingCheck::order))
                .containsExactly(4, 3, 2, 1, 0);
    }
}
