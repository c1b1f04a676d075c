package io.recourse.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.evidence.TurnOutcome;
import io.recourse.taxonomy.Classification;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The demo's bundled sample sequences ({@code samples/*.jsonl} on the classpath): whole turns of
 * several agents as DESIGN §3 frame envelopes, in the shapes of the test corpus, each line with
 * the TurnOutcome it must get. Time base {@value #BASE}; {@link #shifted(Duration)} moves every
 * {@code occurred_at} and expected hint onto another clock (DESIGN §8: demos shift onto the
 * injected clock before publishing).
 */
public final class DemoSamples {

    /** The sample files, in print order. */
    public static final List<String> FILES = List.of("claude.jsonl", "codex.jsonl", "gemini.jsonl", "opencode.jsonl");
    /** The instant the samples' {@code occurred_at} values are written against. */
    public static final String BASE = "2026-06-01T12:00:00Z";
    /** Hints are compared with this tolerance (the corpus's rule). */
    public static final Duration HINT_TOLERANCE = Duration.ofSeconds(1);

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * What a sample's turn must get.
     *
     * @param code       taxonomy code, or {@code null} for a completed/cancelled turn
     * @param retryAfter expected validated {@code retry_after} (UTC), or {@code null} = none
     * @param resetAt    expected validated {@code reset_at} (UTC), or {@code null} = none
     */
    public record Expected(String outcome, String code, String errorClass, boolean replaySafe, Instant retryAfter,
                           Instant resetAt) {
    }

    /**
     * One sample line: one turn of {@code sessionId} (generation-0 setup frames may precede it).
     *
     * @param frames the frame envelopes, in publishing order
     */
    public record Sample(String file, String name, String agentType, String sessionId, List<ObjectNode> frames, Expected expected) {

        /**
         * How {@code observed} differs from the expectation: outcome, code, class, replay safety,
         * and — where expected — the hint (within {@link #HINT_TOLERANCE}); empty when it matches.
         */
        public List<String> differences(TurnOutcome observed) {
            List<String> out = new ArrayList<>();
            if (observed == null) {
                out.add("no TurnOutcome");
                return out;
            }
            Classification c = observed.classification();
            String code = c == null ? null : c.code().wire();
            String cls = c == null ? null : c.errorClass().wire();
            check(out, "outcome", expected.outcome(), observed.outcome().wire());
            check(out, "code", expected.code(), code);
            check(out, "class", expected.errorClass(), cls);
            if ("failed".equals(expected.outcome())) {
                check(out, "replay_safe", String.valueOf(expected.replaySafe()), String.valueOf(observed.replaySafe()));
                hint(out, "retry_after", expected.retryAfter(), c == null ? null : c.retryAfter(), "rate_limited".equals(code));
                hint(out, "reset_at", expected.resetAt(), c == null ? null : c.resetAt(), "quota_limited".equals(code));
            }
            return out;
        }

        private static void check(List<String> out, String field, String want, String got) {
            if (!Objects.equals(want, got)) {
                out.add(field + " " + got + " (expected " + want + ")");
            }
        }

        private static void hint(List<String> out, String field, Instant want, Instant got, boolean applies) {
            if (!applies) {
                return;
            }
            boolean same = want == null ? got == null
                    : got != null && Duration.between(want, got).abs().compareTo(HINT_TOLERANCE) <= 0;
            if (!same) {
                out.add(field + " " + got + " (expected " + want + ")");
            }
        }

        /** This sample with every {@code occurred_at} and expected hint moved by {@code shift}. */
        public Sample shifted(Duration shift) {
            List<ObjectNode> moved = new ArrayList<>();
            for (ObjectNode f : frames) {
                ObjectNode c = f.deepCopy();
                c.put("occurred_at", Instant.parse(f.get("occurred_at").asText()).plus(shift).toString());
                moved.add(c);
            }
            Expected e = expected;
            return new Sample(file, name, agentType, sessionId, moved, new Expected(e.outcome(), e.code(), e.errorClass(),
                    e.replaySafe(), e.retryAfter() == null ? null : e.retryAfter().plus(shift),
                    e.resetAt() == null ? null : e.resetAt().plus(shift)));
        }
    }

    private DemoSamples() {
    }

    /**
     * Every sample of {@link #FILES}, in file and line order, at the time base.
     *
     * @throws UncheckedIOException when a file is missing or not JSON lines
     */
    public static List<Sample> load() {
        List<Sample> out = new ArrayList<>();
        for (String file : FILES) {
            try (InputStream in = DemoSamples.class.getResourceAsStream("/samples/" + file)) {
                if (in == null) {
                    throw new IOException("samples/" + file + " is not on the classpath");
                }
                for (String raw : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    if (raw.isBlank()) {
                        continue;
                    }
                    JsonNode line = MAPPER.readTree(raw);
                    List<ObjectNode> frames = new ArrayList<>();
                    line.get("frames").forEach(f -> frames.add((ObjectNode) f));
                    JsonNode e = line.get("expected");
                    out.add(new Sample(file, line.get("name").asText(), line.path("agent_type").asText(null),
                            frames.get(frames.size() - 1).get("session_id").asText(), List.copyOf(frames),
                            new Expected(e.get("outcome").asText(), text(e, "code"), text(e, "class"),
                                    e.path("replay_safe").asBoolean(), instant(e, "retry_after"), instant(e, "reset_at"))));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read samples/" + file, e);
            }
        }
        return out;
    }

    /** Every sample moved so that the time base falls on {@code now}. */
    public static List<Sample> shiftedTo(Instant now) {
        Duration shift = Duration.between(Instant.parse(BASE), now);
        return load().stream().map(s -> s.shifted(shift)).toList();
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static Instant instant(JsonNode n, String field) {
        String v = text(n, field);
        return v == null ? null : Instant.parse(v);
    }
}
