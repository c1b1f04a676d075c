package io.recourse.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import io.recourse.demo.RoutingDemo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * The benchmark's frame workload: a deterministic, seeded, streaming mix of DESIGN §3
 * frame envelopes built from the corpus shapes copied into {@code src/main/resources/bench/}
 * ({@code templates.jsonl}: setup traffic, completed, cancelled and failing turns covering the
 * taxonomy; {@code filler.jsonl}: {@code session/update} payloads used to stretch turns).
 *
 * <p>Shape of the stream, per {@link Options}:
 * <ul>
 *   <li>{@code sessions} sessions, {@code concurrency} of them open at once; the next frame
 *       comes from a uniformly chosen open session, so the frames of many turns interleave;</li>
 *   <li>each session sends its generation-0 setup traffic, then {@code turnsPerSession} turns
 *       (generations 1..n) of 10–60 frames (a template stretched with filler; launch failures
 *       keep their short natural shape); with {@code openTurns} the stream is instead only the
 *       first half of one more turn per session, which never ends;</li>
 *   <li>{@code failingFraction} of the turns fail, spread evenly over the failing templates
 *       (every code the corpus has a shape for, both fallbacks included); failing turns get only
 *       quiet filler (no assistant output or tool activity), so their replay-safety is the
 *       template's;</li>
 *   <li>{@code outOfOrderFraction} of the inner frames of a turn trade places with their successor
 *       (never the first or the terminal frame); {@code duplicateFraction} of the frames are sent
 *       twice; {@code malformedFraction} extra records are malformed (truncated JSON, a missing
 *       required field, or a key that disagrees with the body).</li>
 * </ul>
 * Memory is O(concurrency × turn length) small integers: frames are rendered when taken, never
 * stored. Record keys are {@code <session_id>/<prompt_generation>}; values are UTF-8 JSON.
 * {@code occurred_at} is {@code base} plus 250 ms per frame of the session.
 */
public final class Workload implements Iterator<Workload.Record> {

    /**
     * Parameters of a workload.
     *
     * @param seed               the seed: equal options give equal streams
     * @param sessions           number of sessions, ≥ 1
     * @param concurrency        sessions open at once, 1..sessions
     * @param turnsPerSession    turns (generations ≥ 1) per session, ≥ 1
     * @param minFrames          shortest stretched turn (frames)
     * @param maxFrames          longest stretched turn (frames)
     * @param failingFraction    fraction of turns that fail, 0..1
     * @param malformedFraction  extra malformed records per frame, 0..1
     * @param outOfOrderFraction inner frames swapped with their successor, 0..1
     * @param duplicateFraction  frames sent twice, 0..1
     * @param dynamicFraction    sessions on a dynamic profile (with workspace, run, execution profile), 0..1
     * @param openTurns          whether the stream is only one never-closing half turn per session ({@link #onlyOpenTurns()})
     * @param base               occurred_at of each session's first frame (UTC)
     * @param sessionPrefix      prefix of the session ids (distinct per run)
     */
    public record Options(long seed, int sessions, int concurrency, int turnsPerSession, int minFrames, int maxFrames,
                          double failingFraction, double malformedFraction, double outOfOrderFraction,
                          double duplicateFraction, double dynamicFraction, boolean openTurns, Instant base,
                          String sessionPrefix, Mix mix) {

        /** The benchmark mix: 5 % failing turns, 1 % malformed, 2 % out of order, 0.5 % duplicates, 20 % dynamic. */
        public static Options defaults(long seed, int sessions) {
            return new Options(seed, sessions, Math.min(sessions, 100_000), 2, 10, 60, 0.05, 0.01, 0.02, 0.005, 0.2,
                    false, Instant.parse("2026-06-01T12:00:00Z"), "bench", Mix.UNIFORM);
        }

        /**
         * The realistic mix ({@link Mix#REALISTIC}): the noise and failure fractions of {@link #defaults},
         * at most {@link #REALISTIC_CONCURRENCY} sessions open at once, turns of 20–60 frames sent in
         * bursts, {@link #OFFICE_FRACTION} of the sessions replaced by Office runs.
         */
        public static Options realistic(long seed, int sessions) {
            return new Options(seed, sessions, Math.min(sessions, REALISTIC_CONCURRENCY), 2, 20, 60, 0.05, 0.01, 0.02,
                    0.005, 0.2, false, Instant.parse("2026-06-01T12:00:00Z"), "bench", Mix.REALISTIC);
        }

        /** {@link #defaults} or {@link #realistic}. */
        public static Options of(Mix mix, long seed, int sessions) {
            return mix == Mix.REALISTIC ? realistic(seed, sessions) : defaults(seed, sessions);
        }

        public Options withTurnsPerSession(int n) {
            return new Options(seed, sessions, concurrency, n, minFrames, maxFrames, failingFraction, malformedFraction,
                    outOfOrderFraction, duplicateFraction, dynamicFraction, openTurns, base, sessionPrefix, mix);
        }

        public Options withConcurrency(int n) {
            return new Options(seed, sessions, n, turnsPerSession, minFrames, maxFrames, failingFraction, malformedFraction,
                    outOfOrderFraction, duplicateFraction, dynamicFraction, openTurns, base, sessionPrefix, mix);
        }

        public Options withBase(Instant b) {
            return new Options(seed, sessions, concurrency, turnsPerSession, minFrames, maxFrames, failingFraction,
                    malformedFraction, outOfOrderFraction, duplicateFraction, dynamicFraction, openTurns, b, sessionPrefix, mix);
        }

        public Options withSessionPrefix(String p) {
            return new Options(seed, sessions, concurrency, turnsPerSession, minFrames, maxFrames, failingFraction,
                    malformedFraction, outOfOrderFraction, duplicateFraction, dynamicFraction, openTurns, base, p, mix);
        }

        /**
         * Only the open half-turns (generation {@code turnsPerSession + 1}, seq from 1,000,001) of every
         * session: no setup traffic, no closed turns, no Office runs. Sent after the ordinary stream of the
         * same options it opens one more turn per session, for the state-per-open-turn measurement.
         */
        public Options onlyOpenTurns() {
            return new Options(seed, sessions, concurrency, turnsPerSession, minFrames, maxFrames, failingFraction,
                    malformedFraction, outOfOrderFraction, duplicateFraction, dynamicFraction, true, base, sessionPrefix, mix);
        }

        /** Without malformed, out-of-order and duplicate records (e.g. for the open-turn phase). */
        public Options clean() {
            return new Options(seed, sessions, concurrency, turnsPerSession, minFrames, maxFrames, failingFraction,
                    0, 0, 0, dynamicFraction, openTurns, base, sessionPrefix, mix);
        }

        public Options {
            if (sessions < 1 || concurrency < 1 || concurrency > sessions || turnsPerSession < 1
                    || minFrames < 2 || maxFrames < minFrames || mix == null) {
                throw new IllegalArgumentException("bad workload options " + sessions + "/" + concurrency + "/"
                        + turnsPerSession + "/" + minFrames + ".." + maxFrames + "/" + mix);
            }
        }
    }

    /** How the frames of the open sessions interleave. */
    public enum Mix {
        /** Every next frame from a uniformly chosen open session; {@code occurred_at} 250 ms per frame of the session. */
        UNIFORM,
        /**
         * A duty cycle per session: each turn is a burst of {@code minFrames..maxFrames} frames at
         * {@value #MIN_RATE}–{@value #MAX_RATE} frames/s, then the session idles
         * {@value #MIN_IDLE_MS}–{@value #MAX_IDLE_MS} ms before its next turn; frames are sent in the
         * order of their {@code occurred_at} across all open sessions. {@value #OFFICE_FRACTION} of the
         * sessions are Office runs instead ({@link Kind#RUN_REQUEST}).
         */
        REALISTIC
    }

    /** Sessions open at once in the realistic mix (at most). */
    public static final int REALISTIC_CONCURRENCY = 10_000;
    /** Slowest and fastest burst of the realistic mix, frames per second of one session. */
    public static final int MIN_RATE = 10;
    public static final int MAX_RATE = 50;
    /** Shortest and longest idle time between two turns of a session in the realistic mix, ms. */
    public static final int MIN_IDLE_MS = 5_000;
    public static final int MAX_IDLE_MS = 60_000;
    /** Sessions of the realistic mix that are Office runs (a RunRequest; the bench's dispatcher plays their turns). */
    public static final double OFFICE_FRACTION = 0.05;

    /** What a record is. */
    public enum Kind {
        /** A frame, sent for the first time. */
        FRAME,
        /** A frame sent again (same key and bytes). */
        DUPLICATE,
        /** A record the ingress must reject to the DLQ. */
        MALFORMED,
        /**
         * An Office RunRequest (DESIGN §7.1) for the run {@code sessionId} (realistic mix only): key the
         * workspace id, value the run request JSON; it goes to {@code recourse.office.run-requests}.
         */
        RUN_REQUEST
    }

    /**
     * One record to produce.
     *
     * @param key             UTF-8 {@code <session_id>/<prompt_generation>}
     * @param value           UTF-8 JSON (or malformed bytes)
     * @param kind            what it is
     * @param sessionId       the session
     * @param generation      the prompt generation (0 for setup traffic)
     * @param terminal        first sending of a turn's terminal frame
     * @param expectedCode    for a failing turn's terminal frame, the code its template expects; else {@code null}
     * @param outcome         for a terminal frame, the template's outcome ({@code completed|cancelled|failed}); else {@code null}
     */
    public record Record(byte[] key, byte[] value, Kind kind, String sessionId, int generation, boolean terminal,
                         String expectedCode, String outcome) {

        /** {@code <session_id>/<prompt_generation>}, the turn key. */
        public String turn() {
            return sessionId + "/" + generation;
        }

        public boolean failingTerminal() {
            return terminal && "failed".equals(outcome);
        }
    }

    /** A template turn: its frames as pre-rendered JSON fragments. */
    record Template(String name, boolean setup, String outcome, String code, boolean launch, String profileFragment,
                    List<String> frames) {
        boolean failing() {
            return "failed".equals(outcome);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Template> TEMPLATES = loadTemplates();
    private static final List<String> FILLER_ALL = loadFiller(false);
    private static final List<String> FILLER_QUIET = loadFiller(true);
    private static final List<Template> SETUPS = TEMPLATES.stream().filter(Template::setup).toList();
    private static final List<Template> FAILING = TEMPLATES.stream().filter(t -> !t.setup() && t.failing()).toList();
    private static final List<Template> OTHER = TEMPLATES.stream().filter(t -> !t.setup() && !t.failing()).toList();
    /** A transient, high-confidence, replay-safe failure (provider 500): the sentinel turn. */
    private static final Template SENTINEL = TEMPLATES.stream().filter(t -> t.name().equals("claude_500_api_error"))
            .findFirst().orElseThrow();

    private final Options options;
    private final SplittableRandom scheduler;
    private final Slot[] slots;
    /** The realistic mix's open sessions by the virtual time of their next record; {@code null} for the uniform mix. */
    private final PriorityQueue<Slot> due;
    private int open;
    private int nextSession;
    private final ArrayList<Record> pending = new ArrayList<>(4);
    private int pendingAt;

    /** A stream for {@code options}. */
    public Workload(Options options) {
        this.options = options;
        this.scheduler = new SplittableRandom(options.seed());
        if (options.mix() == Mix.REALISTIC) {
            this.slots = null;
            this.due = new PriorityQueue<>(options.concurrency(),
                    Comparator.comparingLong((Slot x) -> x.nextAt).thenComparingInt(x -> x.index));
            for (int i = 0; i < options.concurrency(); i++) {
                // the first sessions start spread over one longest idle time, so their duty cycles are out of phase
                due.add(new Slot(nextSession++, scheduler.nextInt(MAX_IDLE_MS)));
            }
        } else {
            this.due = null;
            this.slots = new Slot[options.concurrency()];
            while (open < slots.length) {
                slots[open++] = new Slot(nextSession++, 0);
            }
        }
    }

    /** The names of the failing templates and their expected codes (for reports and tests). */
    public static List<String> failingCodes() {
        return FAILING.stream().map(Template::code).distinct().sorted().toList();
    }

    @Override
    public boolean hasNext() {
        fill();
        return pendingAt < pending.size();
    }

    @Override
    public Record next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return pending.get(pendingAt++);
    }

    private void fill() {
        if (due != null) {
            fillByTime();
            return;
        }
        while (pendingAt >= pending.size() && open > 0) {
            pending.clear();
            pendingAt = 0;
            int i = scheduler.nextInt(open);
            Slot s = slots[i];
            s.emit(pending);
            if (s.done()) {
                if (nextSession < options.sessions()) {
                    slots[i] = new Slot(nextSession++, 0);
                } else {
                    slots[i] = slots[--open];
                    slots[open] = null;
                }
            }
        }
    }

    /** The realistic mix: the record of the session whose next one is due first; a finished session's place goes to a new one. */
    private void fillByTime() {
        while (pendingAt >= pending.size() && !due.isEmpty()) {
            pending.clear();
            pendingAt = 0;
            Slot s = due.poll();
            long now = s.nextAt;
            s.emit(pending);
            if (!s.done()) {
                due.add(s);
            } else if (nextSession < options.sessions()) {
                due.add(new Slot(nextSession++, now + scheduler.nextInt(MIN_IDLE_MS)));
            }
        }
    }

    /**
     * An abandoned turn: the sentinel's shape without its terminal frame — the
     * prompt is sent, the provider answers HTTP 500 (a kept signal), and the gateway goes silent.
     * Only the evidence stage's idle bound can close it.
     */
    public static List<Record> abandonedTurn(String sessionId, int generation, Instant at) {
        List<Record> turn = sentinelTurn(sessionId, generation, at);
        return turn.subList(0, turn.size() - 1);
    }

    /**
     * The frames of one failing turn (the provider-500 shape: transient, high confidence, replay-safe)
     * of {@code sessionId} at {@code generation}, in order, without noise; the last one is terminal.
     * The bench sends one per input partition after the workload to see where processing has got to.
     */
    public static List<Record> sentinelTurn(String sessionId, int generation, Instant at) {
        List<Record> out = new ArrayList<>();
        String profile = SENTINEL.profileFragment() + ",\"profile_kind\":\"concrete\"";
        for (int i = 0; i < SENTINEL.frames().size(); i++) {
            boolean terminal = i == SENTINEL.frames().size() - 1;
            out.add(render(sessionId, generation, i + 1, at.plusMillis(i), SENTINEL.frames().get(i), profile, Kind.FRAME,
                    terminal, SENTINEL));
        }
        return out;
    }

    private static Record render(String sessionId, int generation, long seq, Instant at, String frame, String profile,
                                 Kind kind, boolean terminal, Template t) {
        StringBuilder b = new StringBuilder(frame.length() + 200);
        b.append("{\"session_id\":\"").append(sessionId).append("\",\"prompt_generation\":").append(generation)
                .append(",\"seq\":").append(seq).append(",\"occurred_at\":\"").append(at).append("\",")
                .append(frame).append(',').append(profile).append('}');
        byte[] key = (sessionId + "/" + generation).getBytes(StandardCharsets.UTF_8);
        return new Record(key, b.toString().getBytes(StandardCharsets.UTF_8), kind, sessionId, generation, terminal,
                terminal && t.failing() ? t.code() : null, terminal ? t.outcome() : null);
    }

    /** One open session: its random source, the current turn's plan and position. */
    private final class Slot {
        final int index;
        final SplittableRandom rng;
        final String sessionId;
        final String identity;
        /** Realistic mix: an Office run (its one record is the RunRequest), not a session of frames. */
        final boolean office;
        /** Realistic mix: virtual ms (from {@code base}) of this session's next record. */
        long nextAt;
        /** Realistic mix: ms between two frames of the current turn (1000 / frames per second). */
        long spacing;
        int generation;
        long seq;
        Template template;
        /** The turn's frames in sending order: ≥ 0 a template frame, < 0 filler {@code -1 - index}. */
        int[] plan;
        /** The seq each planned frame carries: its place before the out-of-order swaps. */
        long[] seqs;
        int at;

        Slot(int index, long startAt) {
            this.index = index;
            rng = new SplittableRandom(options.seed() * 0x9E3779B97F4A7C15L + index);
            sessionId = options.sessionPrefix() + "-" + Long.toHexString(rng.nextLong() & 0xFFFFFFFFFFFFL) + "-" + index;
            identity = rng.nextDouble() < options.dynamicFraction()
                    ? "\"profile_kind\":\"dynamic\",\"workspace_id\":\"ws-" + (index % 97) + "\",\"run_id\":\"run-" + index
                            + "\",\"execution_profile_id\":\"ep-" + (index % 7) + "\""
                    : "\"profile_kind\":\"concrete\"";
            office = options.mix() == Mix.REALISTIC && !options.openTurns() && rng.nextDouble() < OFFICE_FRACTION;
            nextAt = startAt;
            generation = options.openTurns() ? options.turnsPerSession() : -1;
            seq = options.openTurns() ? 1_000_000 : 0;
            if (!office) {
                nextTurn();
            }
        }

        boolean done() {
            return office ? generation > 0 : plan == null;
        }

        private boolean openTurn() {
            return options.openTurns() && generation == options.turnsPerSession() + 1;
        }

        void nextTurn() {
            generation++;
            at = 0;
            if (options.mix() == Mix.REALISTIC) {
                if (generation > 0 || options.openTurns()) {
                    nextAt += MIN_IDLE_MS + rng.nextInt(MAX_IDLE_MS - MIN_IDLE_MS + 1); // the session idles
                }
                spacing = 1000 / (MIN_RATE + rng.nextInt(MAX_RATE - MIN_RATE + 1));
            }
            if (generation > options.turnsPerSession() && !openTurn()) {
                plan = null;
                return;
            }
            if (generation == 0) {
                template = SETUPS.get(rng.nextInt(SETUPS.size()));
                int n = template.frames().size();
                plan = new int[n];
                seqs = new long[n];
                for (int i = 0; i < n; i++) {
                    plan[i] = i;
                    seqs[i] = seq + 1 + i;
                }
                return;
            }
            boolean failing = !openTurn() && rng.nextDouble() < options.failingFraction();
            template = failing ? FAILING.get(rng.nextInt(FAILING.size())) : OTHER.get(rng.nextInt(OTHER.size()));
            int n = template.frames().size();
            int target = options.minFrames() + rng.nextInt(options.maxFrames() - options.minFrames() + 1);
            int filler = template.launch() ? 0 : Math.max(0, target - n);
            List<String> pool = failing ? FILLER_QUIET : FILLER_ALL;
            int[] p = new int[n + filler];
            for (int i = 0; i < filler; i++) {
                p[1 + i] = -1 - rng.nextInt(pool.size());
            }
            for (int i = 1; i < n; i++) {
                p[filler + i] = i;
            }
            long[] q = new long[p.length];
            for (int i = 0; i < p.length; i++) {
                q[i] = seq + 1 + i;
            }
            // out of order: an inner frame trades places with its (inner) successor
            for (int i = 1; i + 1 < p.length - 1; i++) {
                if (rng.nextDouble() < options.outOfOrderFraction()) {
                    swap(p, q, i);
                    i++;
                }
            }
            if (openTurn()) {
                // the first half, never the terminal frame: a turn that stays open
                int keep = Math.max(1, Math.min(p.length - 1, p.length / 2));
                p = java.util.Arrays.copyOf(p, keep);
                q = java.util.Arrays.copyOf(q, keep);
            }
            plan = p;
            seqs = q;
        }

        private static void swap(int[] p, long[] q, int i) {
            int t = p[i];
            p[i] = p[i + 1];
            p[i + 1] = t;
            long u = q[i];
            q[i] = q[i + 1];
            q[i + 1] = u;
        }

        void emit(List<Record> out) {
            if (office) {
                String ws = BenchOffice.officeWorkspace(options.sessionPrefix(), index);
                String runId = options.sessionPrefix() + "-run-" + index;
                byte[] value = RoutingDemo.runRequestJson(runId, ws, BenchOffice.officeProfile(index), options.base().plusMillis(nextAt))
                        .toString().getBytes(StandardCharsets.UTF_8);
                out.add(new Record(ws.getBytes(StandardCharsets.UTF_8), value, Kind.RUN_REQUEST, runId, 0, false, null, null));
                generation = 1;
                return;
            }
            int item = plan[at];
            long frameSeq = seqs[at];
            String fragment = item >= 0 ? template.frames().get(item)
                    : (template.failing() ? FILLER_QUIET : FILLER_ALL).get(-1 - item);
            boolean terminal = generation > 0 && !openTurn() && item == template.frames().size() - 1;
            String profile = template.profileFragment() + "," + identity;
            Instant when = options.base().plusMillis(options.mix() == Mix.REALISTIC ? nextAt : 250 * frameSeq);
            nextAt += spacing;
            Record r = render(sessionId, generation, frameSeq, when, fragment, profile, Kind.FRAME, terminal, template);
            out.add(r);
            if (rng.nextDouble() < options.duplicateFraction()) {
                out.add(new Record(r.key(), r.value(), Kind.DUPLICATE, sessionId, generation, false, null, null));
            }
            if (rng.nextDouble() < options.malformedFraction()) {
                out.add(malformed(r));
            }
            at++;
            if (at == plan.length) {
                seq += plan.length;
                nextTurn();
            }
        }

        private Record malformed(Record r) {
            String json = new String(r.value(), StandardCharsets.UTF_8);
            byte[] key = r.key();
            byte[] value;
            switch (rng.nextInt(3)) {
                case 0 -> value = java.util.Arrays.copyOf(r.value(), r.value().length / 2); // truncated JSON
                case 1 -> value = json.replace("\"source\":", "\"origin\":").getBytes(StandardCharsets.UTF_8); // required field missing
                default -> {
                    key = (sessionId + "/" + (generation + 1000)).getBytes(StandardCharsets.UTF_8); // key disagrees with body
                    value = r.value();
                }
            }
            return new Record(key, value, Kind.MALFORMED, sessionId, generation, false, null, null);
        }
    }

    private static List<Template> loadTemplates() {
        List<Template> out = new ArrayList<>();
        for (JsonNode t : readLines("/bench/templates.jsonl")) {
            List<String> frames = new ArrayList<>();
            for (JsonNode f : t.path("frames")) {
                frames.add(fragment(f));
            }
            boolean launch = "lifecycle".equals(t.path("frames").path(0).path("source").asText());
            String profile = "\"agent_type\":" + JSON.valueToTree(t.path("agent_type").asText())
                    + ",\"provider_id\":" + JSON.valueToTree(t.path("provider_id").asText())
                    + ",\"model_id\":" + JSON.valueToTree(t.path("model_id").asText());
            out.add(new Template(t.path("name").asText(), "setup".equals(t.path("kind").asText()),
                    t.path("outcome").isNull() ? null : t.path("outcome").asText(),
                    t.path("code").isNull() ? null : t.path("code").asText(), launch, profile, List.copyOf(frames)));
        }
        return List.copyOf(out);
    }

    private static List<String> loadFiller(boolean quietOnly) {
        List<String> out = new ArrayList<>();
        for (JsonNode f : readLines("/bench/filler.jsonl")) {
            if (!quietOnly || !f.path("effect").asBoolean()) {
                out.add(fragment(((com.fasterxml.jackson.databind.node.ObjectNode) f.deepCopy()).put("source", "acp_update")));
            }
        }
        return List.copyOf(out);
    }

    /** {@code "source":…,"phase":…,"payload":…[,"prompt_origin":…]} without braces. */
    private static String fragment(JsonNode f) {
        StringBuilder b = new StringBuilder();
        b.append("\"source\":").append(f.path("source")).append(",\"phase\":").append(f.path("phase"))
                .append(",\"payload\":").append(f.path("payload"));
        if (f.has("prompt_origin")) {
            b.append(",\"prompt_origin\":").append(f.path("prompt_origin"));
        }
        return b.toString();
    }

    private static List<JsonNode> readLines(String resource) {
        List<JsonNode> out = new ArrayList<>();
        try (InputStream in = Workload.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isBlank()) {
                    out.add(JSON.readTree(line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
