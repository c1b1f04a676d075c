package io.recourse.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.config.RecourseConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code recourse bench}'s logic on tiny sizes against the embedded broker (not timed: it asserts
 * what was measured and cleaned, never how fast).
 */
class BenchQuickIT {

    @TempDir
    Path tmp;

    @Test
    void aTinyRunMeasuresBothTopologiesThePacedLatencyAndThePurgeOfAbandonedTurnsThenLeavesNothingBehind() throws Exception {
        Path work = tmp.resolve("bench");
        Bench.Settings settings = new Bench.Settings(20, 1, 5, 1, List.of("exactly_once_v2"), List.of(1), List.of(1),
                true, true, false, RecourseConfig.defaults(), work);
        long failing = 0;
        Workload w = new Workload(Workload.Options.defaults(5, 20).withTurnsPerSession(1));
        long count = 0;
        while (w.hasNext()) {
            Workload.Record r = w.next();
            count++;
            failing += r.failingTerminal() ? 1 : 0;
        }
        long records = count;

        List<RunResult> results;
        PurgeResult abandoned;
        try (Bench bench = Bench.start(settings)) {
            results = bench.runAll(r -> { });
            abandoned = bench.abandoned().orElseThrow();
        }

        assertThat(results).extracting(r -> r.scenario().label())
                .containsExactly("pass-through eos t1 i1", "full eos t1 i1", results.get(2).scenario().label());
        assertThat(results.get(2).scenario().rate()).isPositive();
        assertThat(results).allSatisfy(r -> {
            assertThat(r.timedOut()).as(r.scenario().label()).isFalse();
            assertThat(r.framesPerSecond()).isPositive();
        });
        assertThat(results.get(0).records()).isEqualTo(records);
        assertThat(results.get(1).records()).isEqualTo(records);
        // the full topology's state was measured on its changelogs
        assertThat(results.get(1).storeBytes()).containsKey("recourse-evidence-turns");
        assertThat(results.get(1).stateBytesPerSession()).isPositive();
        // the pass-through copy of every failing turn's terminal frame was seen by the read_committed observer
        assertThat(results.get(0).classificationCount()).isEqualTo((int) failing);
        assertThat(BenchReport.markdown(results)).contains("| pass-through | exactly_once_v2 | 1 | 1 | " + records);
        // every abandoned turn was counted as expired; after the retention neither it nor its signals remain
        assertThat(abandoned.openTurnsBefore()).isEqualTo(20);
        assertThat(abandoned.signalsBefore()).isPositive();
        assertThat(abandoned.expiredCounted()).isEqualTo(20);
        assertThat(abandoned.turnsAfterPurge()).isZero();
        assertThat(abandoned.signalsAfterPurge()).isZero();
        assertThat(abandoned.turnStoreBytesAfter()).isLessThan(abandoned.turnStoreBytesBefore());
        assertThat(BenchReport.markdown(results, java.util.Optional.of(abandoned))).contains("| purged and counted |").contains("| yes |");
        assertThat(Files.exists(work)).isFalse();
    }
    @Test
    void aTinyRealisticRunDrivesTheRoutingOwnerThroughTheScriptedDispatcherAndMeasuresItsDecisions() throws Exception {
        Path work = tmp.resolve("bench-realistic");
        int sessions = 40;
        long seed = 4; // 3 Office runs in one workspace whose script parks them (capacity, quota, auth, then the reset)
        Bench.Settings settings = new Bench.Settings(sessions, 1, seed, 1, List.of("exactly_once_v2"), List.of(1), List.of(1),
                false, false, false, RecourseConfig.defaults(), work, List.of(Scenario.Kind.FULL), Workload.Mix.REALISTIC);
        long records = 0;
        long runs = 0;
        Workload w = new Workload(Workload.Options.realistic(seed, sessions).withTurnsPerSession(1));
        while (w.hasNext()) {
            Workload.Record r = w.next();
            records++;
            runs += r.kind() == Workload.Kind.RUN_REQUEST ? 1 : 0;
        }
        assertThat(runs).as("the seed gives this size a few Office runs").isGreaterThanOrEqualTo(2);

        List<RunResult> results;
        try (Bench bench = Bench.start(settings)) {
            results = bench.runAll(r -> { });
        }

        assertThat(results).hasSize(1);
        RunResult r = results.get(0);
        assertThat(r.scenario().label()).isEqualTo("full eos t1 i1");
        assertThat(r.timedOut()).isFalse();
        assertThat(r.records()).isEqualTo(records);
        OfficeResult office = r.office();
        assertThat(office).isNotNull();
        assertThat(office.runs()).isEqualTo((int) runs);
        // every run was launched, and every run's first turn fails (each script starts with a failure on the first candidate)
        assertThat(office.actions().getOrDefault("launch", 0)).isGreaterThanOrEqualTo((int) runs);
        assertThat(office.failedTurns().values().stream().mapToInt(Integer::intValue).sum()).isGreaterThanOrEqualTo((int) runs);
        assertThat(office.routeCommands()).isGreaterThan(runs);
        assertThat(office.runStates()).isGreaterThanOrEqualTo(runs);
        assertThat(office.decisionsPerSecond()).isPositive();
        assertThat(office.answerCount()).isPositive();
        assertThat(office.answerP99()).isGreaterThanOrEqualTo(office.answerP50()).isPositive();
        assertThat(office.settled()).isTrue();
        assertThat(office.runsWithCompletedTurn()).isPositive();
        assertThat(office.runsByStatus()).containsKey("waiting_for_provider_capacity");
        // the routing owner's stores now hold the runs
        assertThat(r.storeBytes().getOrDefault("recourse-routing-runs", 0L)).isPositive();
        assertThat(BenchReport.markdown(results)).contains("### Routing owner").contains("| full eos t1 i1 | " + runs + " |");
        assertThat(Files.exists(work)).isFalse();
    }
}
