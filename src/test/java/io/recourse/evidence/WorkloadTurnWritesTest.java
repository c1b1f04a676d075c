package io.recourse.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.bench.Workload;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.ingress.FrameRejectedException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * How often the evidence processor's write rule (DESIGN §4) puts the turn state on the bench's
 * workloads ({@link Workload}, 2,000 sessions, seed 42), counted on {@link CrashReplayProperties.Model}
 * (the processor's writes without Kafka, before the record cache): the figure BENCHMARKS.md
 * "Session 8" reports, and a guard that a tool/thought update inside a run writes nothing.
 * Prints the puts per frame kind.
 */
public class WorkloadTurnWritesTest {

    @Test
    public void toolAndThoughtUpdatesInsideARunPutNoTurnState() {
        for (Workload.Mix mix : Workload.Mix.values()) {
            Instant base = Instant.parse("2026-01-01T00:00:00Z");
            Workload workload = new Workload(Workload.Options.of(mix, 42, 2000).withBase(base));
            FrameParser parser = new FrameParser();
            CrashReplayProperties.Model model = new CrashReplayProperties.Model();
            Map<String, int[]> byKind = new TreeMap<>();
            int frames = 0;
            long t = base.toEpochMilli();
            while (workload.hasNext()) {
                Workload.Record r = workload.next();
                Frame f;
                try {
                    f = parser.parse(r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8), r.value());
                } catch (FrameRejectedException malformed) {
                    continue;
                }
                frames++;
                int before = model.writes;
                model.feed(f, Instant.ofEpochMilli(++t));
                String kind = f.source() + "/" + (f.payload().sessionUpdate() != null ? f.payload().sessionUpdate()
                        : f.payload().method() != null ? f.payload().method() : f.payload().event());
                int[] c = byKind.computeIfAbsent(kind, k -> new int[2]);
                c[0]++;
                c[1] += model.writes - before;
            }
            System.out.printf("%s: %d frames, %d turn-state puts (%.3f per frame)%n", mix, frames, model.writes,
                    (double) model.writes / frames);
            byKind.forEach((k, c) -> System.out.printf("  %-45s %7d frames %7d puts%n", k, c[0], c[1]));
            int[] tools = byKind.get("ACP_UPDATE/tool_call_update");
            int[] chunks = byKind.get("ACP_UPDATE/agent_message_chunk");
            assertThat(tools[1]).as(mix + ": tool-call updates that put the turn state").isLessThan(tools[0] / 2);
            assertThat(chunks[1]).as(mix + ": message chunks are all marked").isGreaterThan(chunks[0] * 9 / 10);
            assertThat((double) model.writes / frames).as(mix + ": turn-state puts per frame").isLessThan(0.55);
        }
    }
}
