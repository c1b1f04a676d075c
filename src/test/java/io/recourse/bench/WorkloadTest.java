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

    private static long seqOf(Workload.Record r) {
        String json = new String(r.value(), java.nio.charset.StandardCharsets.UTF_8);
        int i = json.indexOf("\"seq\":") + 6;
        int j = json.indexOf(',', i);
        return Long.parseLong(json.substring(i, j));
    }
}
