package io.recourse.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.recourse.ingress.FrameParser;
import io.recourse.ingress.FrameRejectedException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The benchmark workload is deterministic and has the mix the benchmark method promises (not timed). */
class WorkloadTest {

    private static final int SESSIONS = 2_000;

    private static List<Workload.Record> all(Workload.Options options) {
        List<Workload.Record> out = new ArrayList<>();
        new Workload(options).forEachRemaining(out::add);
        return out;
    }

    @Test
    void theSameSeedGivesTheSameRecordsInTheSameOrder() {
        List<Workload.Record> a = all(Workload.Options.defaults(42, 300));
        List<Workload.Record> b = all(Workload.Options.defaults(42, 300));

        assertThat(a).hasSameSizeAs(b);
        for (int i = 0; i < a.size(); i++) {
            assertThat(a.get(i).key()).as("key %d", i).isEqualTo(b.get(i).key());
            assertThat(a.get(i).value()).as("value %d", i).isEqualTo(b.get(i).value());
        }
    }

    @Test
    void anotherSeedGivesAnotherStream() {
        List<Workload.Record> a = all(Workload.Options.defaults(1, 50));
        List<Workload.Record> b = all(Workload.Options.defaults(2, 50));

        assertThat(Arrays.equals(a.get(0).value(), b.get(0).value())).isFalse();
    }

    @Test
    void aboutFivePercentOfTheTurnsFailAndEveryFailingShapeAppears() {
        List<Workload.Record> records = all(Workload.Options.defaults(7, SESSIONS));

        long turns = records.stream().filter(Workload.Record::terminal).count();
        long failing = records.stream().filter(Workload.Record::failingTerminal).count();
        Set<String> codes = new HashSet<>();
        records.stream().filter(Workload.Record::failingTerminal).forEach(r -> codes.add(r.expectedCode()));

        assertThat(turns).isEqualTo(2L * SESSIONS);
        assertThat((double) failing / turns).isCloseTo(0.05, within(0.012));
        assertThat(codes).containsExactlyInAnyOrderElementsOf(Workload.failingCodes());
        assertThat(codes).hasSizeGreaterThanOrEqualTo(15);
    }

    @Test
    void aboutOnePercentOfTheRecordsAreMalformedAndTheParserRejectsExactlyThose() {
        List<Workload.Record> records = all(Workload.Options.defaults(7, SESSIONS));
        FrameParser parser = new FrameParser();

        int malformed = 0;
        for (Workload.Record r : records) {
            boolean rejected;
            try {
                parser.parse(new String(r.key(), java.nio.charset.StandardCharsets.UTF_8), r.value());
                rejected = false;
            } catch (FrameRejectedException e) {
                rejected = true;
            }
            assertThat(rejected).as("%s %s", r.kind(), r.turn()).isEqualTo(r.kind() == Workload.Kind.MALFORMED);
            malformed += rejected ? 1 : 0;
        }
        assertThat((double) malformed / records.size()).isCloseTo(0.01, within(0.003));
    }

    @Test
    void duplicatesAndOutOfOrderFramesOccurAtTheirRates() {
        List<Workload.Record> records = all(Workload.Options.defaults(7, SESSIONS));
        long frames = records.stream().filter(r -> r.kind() == Workload.Kind.FRAME).count();
        long duplicates = records.stream().filter(r -> r.kind() == Workload.Kind.DUPLICATE).count();
        Map<String, Long> lastSeq = new HashMap<>();
        long backwards = 0;
        for (Workload.Record r : records) {
            if (r.kind() != Workload.Kind.FRAME) {
                continue;
            }
            long seq = seqOf(r);
            Long before = lastSeq.put(r.turn(), seq);
            if (before != null && seq < before) {
                backwards++;
            }
        }

        assertThat((double) duplicates / frames).isCloseTo(0.005, within(0.002));
        assertThat((double) backwards / frames).isCloseTo(0.02, within(0.008));
    }

    @Test
    void turnsHaveTenToSixtyFramesExceptLaunchFailures() {
        List<Workload.Record> records = all(Workload.Options.defaults(3, 500));
        Map<String, Integer> frames = new HashMap<>();
        records.stream().filter(r -> r.kind() == Workload.Kind.FRAME && r.generation() > 0)
                .forEach(r -> frames.merge(r.turn(), 1, Integer::sum));
        Set<String> launches = new HashSet<>();
        records.stream().filter(r -> r.kind() == Workload.Kind.FRAME && new String(r.value()).contains("prompt_dispatched"))
                .forEach(r -> launches.add(r.turn()));

        frames.forEach((turn, n) -> {
            if (!launches.contains(turn)) {
                assertThat(n).as(turn).isBetween(10, 60);
            }
        });
        assertThat(frames.values().stream().mapToInt(Integer::intValue).average().orElseThrow()).isBetween(25.0, 45.0);
    }

    @Test
    void openTurnsNeverSendATerminalFrame() {
        List<Workload.Record> records = all(Workload.Options.defaults(3, 200).onlyOpenTurns().clean());

        assertThat(records).isNotEmpty().noneMatch(Workload.Record::terminal);
        assertThat(records).allMatch(r -> r.generation() == 3);
        assertThat(records.stream().map(Workload.Record::sessionId).distinct().count()).isEqualTo(200);
    }

    // --- the realistic mix ---

    @Test
    void theRealisticMixIsDeterministicToo() {
        List<Workload.Record> a = all(Workload.Options.realistic(42, 300));
        List<Workload.Record> b = all(Workload.Options.realistic(42, 300));

        assertThat(a).hasSameSizeAs(b);
        for (int i = 0; i < a.size(); i++) {
            assertThat(a.get(i).key()).as("key %d", i).isEqualTo(b.get(i).key());
            assertThat(a.get(i).value()).as("value %d", i).isEqualTo(b.get(i).value());
        }
    }

    @Test
    void realisticSessionsStreamBurstsOfTwentyToSixtyFramesAtTenToFiftyFramesPerSecondThenIdle() {
        List<Workload.Record> records = all(Workload.Options.realistic(11, 800));
        Map<String, List<Long>> times = new java.util.LinkedHashMap<>();
        Map<String, Boolean> launch = new HashMap<>();
        long previous = Long.MIN_VALUE;
        for (Workload.Record r : records) {
            if (r.kind() != Workload.Kind.FRAME) {
                continue;
            }
            long at = occurredAt(r);
            assertThat(at).as("frames are sent in occurred_at order").isGreaterThanOrEqualTo(previous);
            previous = at;
            times.computeIfAbsent(r.turn(), k -> new ArrayList<>()).add(at);
            launch.merge(r.turn(), new String(r.value()).contains("prompt_dispatched"), Boolean::logicalOr);
        }
        Map<String, Long> lastOfSession = new HashMap<>();
        Set<Long> spacings = new HashSet<>();
        for (Map.Entry<String, List<Long>> e : times.entrySet()) {
            List<Long> t = e.getValue();
            int generation = Integer.parseInt(e.getKey().substring(e.getKey().lastIndexOf('/') + 1));
            if (generation > 0 && !launch.get(e.getKey())) {
                assertThat(t).as(e.getKey()).hasSizeBetween(20, 60);
            }
            for (int i = 1; i < t.size(); i++) {
                long d = t.get(i) - t.get(i - 1);
                assertThat(d).as("%s: frames %d ms apart", e.getKey(), d).isBetween(1000L / Workload.MAX_RATE, 1000L / Workload.MIN_RATE);
                spacings.add(d);
            }
            String session = e.getKey().substring(0, e.getKey().lastIndexOf('/'));
            Long last = lastOfSession.put(session, t.get(t.size() - 1));
            if (last != null) {
                assertThat(t.get(0) - last).as("%s idles before its next turn", e.getKey())
                        .isBetween((long) Workload.MIN_IDLE_MS, Workload.MAX_IDLE_MS + 1000L / Workload.MIN_RATE);
            }
        }
        assertThat(spacings).as("bursts at many rates").hasSizeGreaterThan(10);
        // the failing fraction and the noise of the uniform mix hold
        long turns = records.stream().filter(Workload.Record::terminal).count();
        long failing = records.stream().filter(Workload.Record::failingTerminal).count();
        assertThat((double) failing / turns).isCloseTo(0.05, within(0.015));
        assertThat(records.stream().filter(r -> r.kind() == Workload.Kind.MALFORMED).count())
                .isPositive();
    }

    @Test
    void fivePercentOfTheRealisticSessionsAreOfficeRunsWhoseRequestsTheOwnerAdmits() {
        List<Workload.Record> records = all(Workload.Options.realistic(11, SESSIONS).withSessionPrefix("b1"));
        List<Workload.Record> requests = records.stream().filter(r -> r.kind() == Workload.Kind.RUN_REQUEST).toList();
        Set<String> profiles = BenchOffice.officeRouteConfigs().stream()
                .map(io.recourse.routing.RouteConfig::dynamicProfileId).collect(java.util.stream.Collectors.toSet());

        assertThat((double) requests.size() / SESSIONS).isCloseTo(Workload.OFFICE_FRACTION, within(0.015));
        Set<String> workspaces = new HashSet<>();
        for (Workload.Record r : requests) {
            io.recourse.routing.RunRequest request = (io.recourse.routing.RunRequest)
                    io.recourse.routing.streams.RoutingJson.runRequestOrFinished(r.value());
            assertThat(request.runId()).isEqualTo(r.sessionId());
            assertThat(new String(r.key(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(request.workspaceId());
            assertThat(profiles).contains(request.dynamicProfileId());
            workspaces.add(request.workspaceId());
        }
        assertThat(workspaces.size()).as("a few runs per workspace").isBetween(requests.size() / 8, requests.size() / 2);
        // an Office run sends no frames of its own: the dispatcher plays its turns
        Set<String> runs = new HashSet<>();
        requests.forEach(r -> runs.add(r.sessionId()));
        assertThat(records).filteredOn(r -> r.kind() != Workload.Kind.RUN_REQUEST).noneMatch(r -> runs.contains(r.sessionId()));
        // the uniform mix has none
        assertThat(all(Workload.Options.defaults(11, 500))).noneMatch(r -> r.kind() == Workload.Kind.RUN_REQUEST);
    }

    @Test
    void officeWorkspacesGetTheirScriptsAtTheirSharesAndTheScriptsFailWithCapacityQuotaAndAuth() {
        Map<BenchOffice.OfficeScript, Integer> counts = new java.util.EnumMap<>(BenchOffice.OfficeScript.class);
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            counts.merge(BenchOffice.OfficeScript.of(11, "b1-ows-" + i), 1, Integer::sum);
        }
        for (BenchOffice.OfficeScript s : BenchOffice.OfficeScript.values()) {
            assertThat((double) counts.getOrDefault(s, 0) / n).as(s.name()).isCloseTo(s.share(), within(0.02));
        }
        assertThat(BenchOffice.OfficeScript.of(11, "b1-ows-7")).isEqualTo(BenchOffice.OfficeScript.of(11, "other-prefix-ows-7"));

        Set<io.recourse.demo.OfficeTurns.End> failing = new HashSet<>();
        for (BenchOffice.OfficeScript s : BenchOffice.OfficeScript.values()) {
            boolean succeeds = false;
            for (int candidate = 0; candidate < 3; candidate++) {
                for (int attempt = 1; attempt <= 3; attempt++) {
                    io.recourse.demo.OfficeTurns.End end = s.end(candidate, attempt);
                    succeeds |= end == io.recourse.demo.OfficeTurns.End.SUCCESS;
                    if (end != io.recourse.demo.OfficeTurns.End.SUCCESS) {
                        failing.add(end);
                    }
                }
            }
            assertThat(succeeds).as("%s ends in a completed turn somewhere", s).isTrue();
        }
        assertThat(failing).containsExactlyInAnyOrder(io.recourse.demo.OfficeTurns.End.CAPACITY,
                io.recourse.demo.OfficeTurns.End.QUOTA, io.recourse.demo.OfficeTurns.End.AUTH);
        assertThat(BenchOffice.OfficeScript.RETRY_CLEARS.end(0, 1)).isEqualTo(io.recourse.demo.OfficeTurns.End.CAPACITY);
        assertThat(BenchOffice.OfficeScript.RETRY_CLEARS.end(0, 2)).isEqualTo(io.recourse.demo.OfficeTurns.End.SUCCESS);
        assertThat(BenchOffice.OfficeScript.PARKS.end(1, 1)).isEqualTo(io.recourse.demo.OfficeTurns.End.QUOTA);
        assertThat(BenchOffice.OfficeScript.PARKS.end(2, 1)).isEqualTo(io.recourse.demo.OfficeTurns.End.AUTH);
    }

    @Test
    void theOfficeRouteConfigurationsAreValidAndRoundTrip() {
        for (io.recourse.routing.RouteConfig c : BenchOffice.officeRouteConfigs()) {
            assertThat(io.recourse.routing.RouteConfigValidator.validate(c)).as(c.dynamicProfileId()).isEmpty();
            io.recourse.routing.RouteConfigValidation read = io.recourse.routing.RouteConfigJson.read(
                    io.recourse.routing.RouteConfigJson.write(c));
            assertThat(read.isValid()).as(read.reason()).isTrue();
            assertThat(read.config()).isEqualTo(c);
            assertThat(c.candidates()).hasSize(3);
        }
    }

    private static long occurredAt(Workload.Record r) {
        String json = new String(r.value(), java.nio.charset.StandardCharsets.UTF_8);
        int i = json.indexOf("\"occurred_at\":\"") + 15;
        return java.time.Instant.parse(json.substring(i, json.indexOf('"', i))).toEpochMilli();
    }

    private static long seqOf(Workload.Record r) {
        String json = new String(r.value(), java.nio.charset.StandardCharsets.UTF_8);
        int i = json.indexOf("\"seq\":") + 6;
        int j = json.indexOf(',', i);
        return Long.parseLong(json.substring(i, j));
    }
}
