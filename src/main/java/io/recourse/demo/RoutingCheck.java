package io.recourse.demo;

import io.recourse.avro.ParkedRun;
import io.recourse.avro.ProviderHealth;
import io.recourse.avro.RouteCommand;
import io.recourse.avro.RunState;
import io.recourse.routing.JitterSource;
import io.recourse.routing.RoutingDecision;
import io.recourse.routing.RoutingSimulator;
import io.recourse.routing.streams.RoutingOutput;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The routing demo's check: what the observed records must show for the scenario (its configuration, not a copy of the policy's numbers). */
final class RoutingCheck {

    /**
     * The structural check: per run, the RouteCommand {@code action:candidate} sequence and the
     * RunState status sequence (repeats collapsed) equal the simulator's for the scenario; per health
     * key, the state sequence (repeats collapsed) equals the simulator's; the owner's short retries
     * have the scenario configuration's delays ({@link RoutingDemoScenario#burstOneShortRetryDelays()}) from the failing
     * turn's record time ({@link RoutingObserved#turnRecordedAt}, DESIGN §8), each issued not before its
     * {@code retry_at} and within {@code tolerance} of max({@code retry_at}, its RunState's {@code updated_at}); every run is parked once with {@code wake_at} within {@code tolerance} of the reset and released once.
     */
    static List<String> check(RoutingObserved observed, Instant reset, int runs, Duration tolerance) {
        RoutingSimulator sim = RoutingDemoScenario.simulator(Instant.parse("2026-01-01T00:00:00Z"), JitterSource.none());
        RoutingDemoScenario.play(sim, runs);
        Map<String, List<String>> expCommands = new TreeMap<>();
        Map<String, List<String>> expStates = new TreeMap<>();
        Map<String, List<String>> expHealth = new TreeMap<>();
        for (RoutingDecision d : sim.decisions()) {
            d.commands().forEach(c -> expCommands.computeIfAbsent(c.runId(), x -> new ArrayList<>()).add(c.action().wire()
                    + ":" + (c.candidate() == null ? "-" : c.candidate().executionProfileId())));
            d.runStates().forEach(s -> collapse(expStates.computeIfAbsent(s.runId(), x -> new ArrayList<>()), s.status().wire()));
            d.health().forEach(h -> collapse(expHealth.computeIfAbsent(h.key().healthKey(), x -> new ArrayList<>()), h.state().wire()));
        }
        // beyond the simulator's script: the wake's relaunch on the second candidate succeeds, which
        // resets that candidate's health to healthy
        var second = RoutingDemoScenario.CANDIDATES.get(1);
        String secondKey = RoutingDemoScenario.WORKSPACE + "/" + second.providerId() + "/provider/" + second.providerId();
        collapse(expHealth.computeIfAbsent(secondKey, x -> new ArrayList<>()), "healthy");
        Map<String, List<String>> commands = new TreeMap<>();
        Map<String, List<String>> states = new TreeMap<>();
        Map<String, List<String>> health = new TreeMap<>();
        Map<String, List<RunState>> retries = new TreeMap<>();
        for (var r : observed.records.get(RoutingOutput.Kind.ROUTE_COMMAND)) {
            RouteCommand c = (RouteCommand) r.value();
            commands.computeIfAbsent(c.getRunId(), x -> new ArrayList<>()).add(c.getAction() + ":"
                    + (c.getExecutionProfileId() == null ? "-" : c.getExecutionProfileId()));
        }
        for (var r : observed.records.get(RoutingOutput.Kind.RUN_STATE)) {
            RunState s = (RunState) r.value();
            collapse(states.computeIfAbsent(s.getRunId(), x -> new ArrayList<>()), s.getStatus());
            if (s.getRetryAt() != null && s.getRetryOrdinal() != null) {
                retries.computeIfAbsent(s.getRunId(), x -> new ArrayList<>()).add(s);
            }
        }
        for (var r : observed.records.get(RoutingOutput.Kind.PROVIDER_HEALTH)) {
            collapse(health.computeIfAbsent(r.key(), x -> new ArrayList<>()), ((ProviderHealth) r.value()).getState());
        }
        List<String> diffs = new ArrayList<>();
        // the second candidate's quota: degraded quota_limited until ≈ the reset
        boolean quota = observed.records.get(RoutingOutput.Kind.PROVIDER_HEALTH).stream()
                .filter(r -> r.key().equals(secondKey)).map(r -> (ProviderHealth) r.value())
                .anyMatch(h -> "degraded".equals(h.getState()) && "quota_limited".equals(h.getCode()) && reset != null
                        && h.getRetryAt() != null && Duration.between(reset, h.getRetryAt()).abs().compareTo(tolerance) <= 0);
        if (!quota) {
            diffs.add("health " + secondKey + ": expected degraded quota_limited with retry_at ≈ the reset " + reset);
        }
        for (String run : RoutingDemoScenario.runIds(runs)) {
            firstDifference(diffs, run + " route commands", expCommands.get(run), commands.get(run));
            firstDifference(diffs, run + " run states", expStates.get(run), states.get(run));
        }
        for (String key : union(expHealth, health)) {
            firstDifference(diffs, "health " + key, expHealth.get(key), health.get(key));
        }
        // the owner's short retries in burst 1: exactly the scenario configuration's delays (no jitter)
        List<RunState> owner = retries.getOrDefault(RoutingDemoScenario.runIds(runs).get(0), List.of());
        List<Duration> expectedDelays = RoutingDemoScenario.burstOneShortRetryDelays();
        for (int i = 0; i < expectedDelays.size(); i++) {
            if (owner.size() <= i) {
                diffs.add("run-01 short retry " + (i + 1) + ": expected a delay of " + expectedDelays.get(i) + " but none was scheduled");
                break;
            }
            // counted from the failing turn's record time (DESIGN §8), whatever the pipeline's lag
            RunState scheduled = owner.get(i);
            Instant failedAt = observed.turnRecordedAt.get(scheduled.getRunId() + "#" + scheduled.getAttempt());
            if (failedAt == null) {
                diffs.add("run-01 short retry " + (i + 1) + ": no record time of the failing turn " + scheduled.getRunId()
                        + "#" + scheduled.getAttempt());
                continue;
            }
            Duration delay = Duration.between(failedAt, scheduled.getRetryAt());
            if (!delay.equals(expectedDelays.get(i))) {
                diffs.add("run-01 short retry " + (i + 1) + ": expected a delay of " + expectedDelays.get(i)
                        + " from the failing turn's record time but was " + delay);
            }
        }
        // the owner's retry commands are issued when due on the scaled clock: never before retry_at, and
        // within the tolerance of max(retry_at, the failure's processing — the RunState's updated_at), as
        // a retry_at anchored to a record the owner processed late is already due when it is armed
        List<Instant> retryIssued = observed.records.get(RoutingOutput.Kind.ROUTE_COMMAND).stream()
                .map(r -> (RouteCommand) r.value())
                .filter(c -> c.getRunId().equals(RoutingDemoScenario.runIds(runs).get(0)) && "retry_same_route".equals(c.getAction()))
                .map(RouteCommand::getIssuedAt).toList();
        for (int i = 0; i < Math.min(2, Math.min(owner.size(), retryIssued.size())); i++) {
            Instant retryAt = owner.get(i).getRetryAt();
            Instant armed = owner.get(i).getUpdatedAt();
            Instant due = armed != null && armed.isAfter(retryAt) ? armed : retryAt;
            Duration late = Duration.between(due, retryIssued.get(i));
            if (retryIssued.get(i).isBefore(retryAt)) {
                diffs.add("run-01 short retry " + (i + 1) + ": issued " + Duration.between(retryIssued.get(i), retryAt)
                        + " before its retry_at");
            } else if (late.compareTo(tolerance) > 0) {
                diffs.add("run-01 short retry " + (i + 1) + ": issued " + late
                        + " after max(retry_at, its scheduling) (tolerance " + tolerance + ")");
            }
        }
        // parks: one per run, wake_at ≈ the quota reset, released exactly once
        Map<String, Integer> parks = new TreeMap<>();
        Map<String, Integer> releases = new TreeMap<>();
        for (var r : observed.records.get(RoutingOutput.Kind.PARKED_RUN)) {
            if (r.value() instanceof ParkedRun p) {
                parks.merge(r.key(), 1, Integer::sum);
                if (!"waiting_for_provider_capacity".equals(p.getStatus())) {
                    diffs.add(r.key() + " parked as " + p.getStatus() + ", expected waiting_for_provider_capacity");
                }
                if (reset == null || p.getWakeAt() == null
                        || Duration.between(reset, p.getWakeAt()).abs().compareTo(tolerance) > 0) {
                    diffs.add(r.key() + " parked with wake_at " + p.getWakeAt() + ", expected ≈ the quota reset " + reset);
                }
            } else {
                releases.merge(r.key(), 1, Integer::sum);
            }
        }
        for (String run : RoutingDemoScenario.runIds(runs)) {
            String key = parks.keySet().stream().filter(k -> k.endsWith(run)).findFirst().orElse(run);
            if (parks.getOrDefault(key, 0) != 1 || releases.getOrDefault(key, 0) != 1) {
                diffs.add(run + ": expected parked once and woken exactly once, was parked " + parks.getOrDefault(key, 0)
                        + " and released " + releases.getOrDefault(key, 0) + " times");
            }
        }
        return diffs;
    }

    static void collapse(List<String> seq, String next) {
        if (seq.isEmpty() || !seq.get(seq.size() - 1).equals(next)) {
            seq.add(next);
        }
    }

    static void firstDifference(List<String> diffs, String what, List<String> expected, List<String> actual) {
        List<String> e = expected == null ? List.of() : expected;
        List<String> a = actual == null ? List.of() : actual;
        for (int i = 0; i < Math.max(e.size(), a.size()); i++) {
            String ei = i < e.size() ? e.get(i) : "(nothing)";
            String ai = i < a.size() ? a.get(i) : "(nothing)";
            if (!ei.equals(ai)) {
                diffs.add(what + " step " + i + ": expected " + ei + " but was " + ai + " (expected " + e + ", was " + a + ")");
                return;
            }
        }
    }

    static List<String> union(Map<String, ?> a, Map<String, ?> b) {
        java.util.TreeSet<String> keys = new java.util.TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        return List.copyOf(keys);
    }

    static int order(String topic) {
        if (topic.endsWith("route-attempts")) {
            return 0;
        } else if (topic.endsWith("provider-health")) {
            return 1;
        } else if (topic.endsWith("parked-runs")) {
            return 2;
        } else if (topic.endsWith("run-state")) {
            return 3;
        }
        return 4;
    }
}
