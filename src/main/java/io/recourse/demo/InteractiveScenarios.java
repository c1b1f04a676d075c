package io.recourse.demo;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.interactive.InteractiveConfig;
import io.recourse.interactive.RecoveryReason;
import io.recourse.interactive.RecoveryState;
import io.recourse.interactive.RecoveryStatus;
import io.recourse.interactive.RetryCommand;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The interactive (Kanban) demo scenarios of DESIGN §6: each names a session, the
 * scripted turns the {@link ScriptedDispatcher} plays (the user's turn, then one turn per retry it
 * dispatches), an optional trigger, and the timeline of {@code recourse.kanban.recovery-state} it
 * must produce (status, attempt, reason per record, in order, see {@link #timeline}). Instants are not compared; every
 * {@code scheduled} record is checked instead: {@code retry_at} − the failing turn's record time (its
 * terminal frame's broker append time, the anchor of DESIGN §6.2/§8, however late the owner
 * processed it) lies within the jittered bounds of the nominal delay, or {@code retry_at} equals the
 * validated {@code retry_after} hint moved onto that record time when that is later. All instants
 * are on the injected (scaled) clock.
 */
public final class InteractiveScenarios {

    /** How one scripted turn ends. */
    public enum Turn {
        /** Claude: HTTP 529 {@code overloaded_error}, then the ACP error (replay-safe). */
        OVERLOADED,
        /** Codex: "Selected model is at capacity" (replay-safe). */
        CAPACITY,
        /** Claude: HTTP 429 with a {@code retry-after} header of the scenario's hint, then the ACP error. */
        RATE_LIMITED,
        /** Claude: a tool call ran, then HTTP 529 (not replay-safe). */
        TOOL_THEN_OVERLOADED,
        /** An answer and {@code stopReason: end_turn}. */
        COMPLETED
    }

    /**
     * The KanbanDispatchAck the demo's scripted dispatcher writes on {@code recourse.kanban.dispatch-acks}
     * (DESIGN §6.3; {@code schemas/kanban-dispatch-ack.schema.json}), keyed by {@code sessionId}.
     *
     * @param reason     for {@code failed}, or {@code null} (then left out)
     * @param generation the generation the dispatch created, or {@code null} (then left out)
     * @param occurredAt written as RFC 3339 UTC text
     */
    public static ObjectNode dispatchAckJson(String commandId, String status, String reason, String sessionId, Integer generation,
                                             Instant occurredAt) {
        ObjectNode ack = JsonNodeFactory.instance.objectNode();
        ack.put("command_id", commandId);
        ack.put("status", status);
        if (reason != null) {
            ack.put("reason", reason);
        }
        ack.put("session_id", sessionId);
        if (generation != null) {
            ack.put("prompt_generation", generation);
        }
        ack.put("occurred_at", occurredAt.toString());
        return ack;
    }

    /** What the demo does besides dispatching. */
    public enum Trigger {
        NONE,
        /** When the session is first {@code scheduled}: the user sends a new prompt (a new generation, no command_id). */
        NEW_PROMPT_WHEN_SCHEDULED,
        /** When the session is first {@code scheduled}: stop the Streams app and start a new one on the same state dir. */
        RESTART_WHEN_SCHEDULED
    }

    /** One expected record of the timeline; {@code reason} {@code null} expects none. */
    public record Step(RecoveryStatus status, int attempt, RecoveryReason reason) {

        @Override
        public String toString() {
            return status.wire() + "/" + attempt + (reason == null ? "" : "/" + reason.wire());
        }
    }

    /**
     * One scenario.
     *
     * @param turns       index 0: the user's turn; index {@code k}: the turn created by retry attempt {@code k}
     * @param hintSeconds the {@code retry-after} of {@link Turn#RATE_LIMITED} turns, or 0
     */
    public record Scenario(String name, String sessionId, String agent, String story, List<Turn> turns, int hintSeconds,
                           Trigger trigger, List<Step> expected) {

        /** The turn that retry {@code attempt} produces (the last scripted one repeats). */
        public Turn turn(int attempt) {
            return turns.get(Math.min(attempt, turns.size() - 1));
        }

        /** The attempts the expected timeline dispatches, in order. */
        public List<Integer> expectedCommands() {
            return expected.stream().filter(s -> s.status() == RecoveryStatus.DISPATCHING).map(Step::attempt).toList();
        }
    }

    /** What was observed for one session (filled by the dispatcher; read after it stopped). */
    public static final class Observed {
        public final List<RecoveryState> states = new ArrayList<>();
        public final List<RetryCommand> commands = new ArrayList<>();
        /** Scaled instant at which the first turn's first frame was stamped. */
        public Instant startedAt;
        /**
         * The record time of each turn, by generation: its terminal frame's broker append time on the
         * scaled clock, the instant the owner anchors a failure's {@code retry_at} to (DESIGN §6.2, §8).
         */
        public final Map<Integer, Instant> recordedAt = new java.util.HashMap<>();
        /**
         * For each HTTP 429 turn, by generation: its {@code retry-after} as a wait from the terminal
         * frame's {@code occurred_at} (the hint's instant is resolved against the 429 frame's).
         */
        public final Map<Integer, Duration> hintWait = new java.util.HashMap<>();
        /** For {@link Trigger#RESTART_WHEN_SCHEDULED}: scaled instants of the stop and of the restart's return (RUNNING by then). */
        public Instant stoppedAt;
        public Instant restartedAt;
        public final List<String> notes = new ArrayList<>();

        /** The latest status, or {@code null} before the first record. */
        public synchronized RecoveryStatus status() {
            return states.isEmpty() ? null : states.get(states.size() - 1).status();
        }
    }

    private InteractiveScenarios() {
    }

    private static Step step(RecoveryStatus status, int attempt) {
        return new Step(status, attempt, null);
    }

    private static Step step(RecoveryStatus status, int attempt, RecoveryReason reason) {
        return new Step(status, attempt, reason);
    }

    /** {@code scheduled → dispatching → awaiting_outcome} of one attempt. */
    private static List<Step> retry(int attempt) {
        return List.of(step(RecoveryStatus.SCHEDULED, attempt), step(RecoveryStatus.DISPATCHING, attempt),
                step(RecoveryStatus.AWAITING_OUTCOME, attempt));
    }

    @SafeVarargs
    private static List<Step> steps(List<Step>... parts) {
        List<Step> all = new ArrayList<>();
        for (List<Step> p : parts) {
            all.addAll(p);
        }
        return List.copyOf(all);
    }

    /** The six scenarios. */
    public static List<Scenario> all() {
        List<Step> exhausted = new ArrayList<>();
        for (int a = 1; a <= 5; a++) {
            exhausted.addAll(retry(a));
        }
        exhausted.add(step(RecoveryStatus.EXHAUSTED, 5, RecoveryReason.ATTEMPTS_EXHAUSTED));
        return List.of(
                new Scenario("overload_recovers_on_second_retry", "demo-kanban-overload", "claude",
                        "529 overloaded, retry 1 overloaded again, retry 2 completes",
                        List.of(Turn.OVERLOADED, Turn.OVERLOADED, Turn.COMPLETED), 0, Trigger.NONE,
                        steps(retry(1), retry(2), List.of(step(RecoveryStatus.DISARMED, 2, RecoveryReason.RETRY_SUCCEEDED)))),
                new Scenario("capacity_exhausts_five_attempts", "demo-kanban-capacity", "codex",
                        "model at capacity on the user's turn and on all 5 retries",
                        List.of(Turn.CAPACITY), 0, Trigger.NONE, List.copyOf(exhausted)),
                new Scenario("rate_limited_with_12s_hint", "demo-kanban-429", "claude",
                        "429 with retry-after: 12 (the hint is the lower bound of retry 1), retry 1 completes",
                        List.of(Turn.RATE_LIMITED, Turn.COMPLETED), 12, Trigger.NONE,
                        steps(retry(1), List.of(step(RecoveryStatus.DISARMED, 1, RecoveryReason.RETRY_SUCCEEDED)))),
                new Scenario("failure_after_tool_call_is_manual", "demo-kanban-tool", "claude",
                        "a tool call ran, then 529: not replay-safe, so no automatic retry",
                        List.of(Turn.TOOL_THEN_OVERLOADED), 0, Trigger.NONE,
                        List.of(step(RecoveryStatus.MANUAL, 0, RecoveryReason.NOT_REPLAY_SAFE))),
                new Scenario("new_prompt_during_countdown_disarms", "demo-kanban-new-prompt", "claude",
                        "429 with retry-after: 45; during the countdown the user sends a new prompt",
                        List.of(Turn.RATE_LIMITED), 45, Trigger.NEW_PROMPT_WHEN_SCHEDULED,
                        List.of(step(RecoveryStatus.SCHEDULED, 1), step(RecoveryStatus.DISARMED, 1, RecoveryReason.NEW_PROMPT))),
                new Scenario("restart_during_countdown", "demo-kanban-restart", "claude",
                        "429 with retry-after: 40; the Streams app is stopped during the countdown and started"
                                + " again on the same state dir; retry 1 fires once and completes",
                        List.of(Turn.RATE_LIMITED, Turn.COMPLETED), 40, Trigger.RESTART_WHEN_SCHEDULED,
                        steps(retry(1), List.of(step(RecoveryStatus.DISARMED, 1, RecoveryReason.RETRY_SUCCEEDED)))));
    }

    /** True when the status ends a chain (DESIGN §6.3: exhausted, cancelled, disarmed, manual). */
    public static boolean terminal(RecoveryStatus status) {
        return status == RecoveryStatus.EXHAUSTED || status == RecoveryStatus.CANCELLED
                || status == RecoveryStatus.DISARMED || status == RecoveryStatus.MANUAL;
    }

    /**
     * What differs between {@code scenario}'s expectation and {@code observed}; empty when it matches.
     *
     * @param config the policy's configuration (nominal delays, jitter ratio) — on the scaled clock
     */
    public static List<String> differences(Scenario scenario, Observed observed, InteractiveConfig config) {
        List<String> out = new ArrayList<>();
        List<Step> seen = timeline(observed.states);
        if (!seen.equals(scenario.expected())) {
            out.add("timeline " + seen + " instead of " + scenario.expected());
        }
        for (RecoveryState s : observed.states) {
            if (s.status() != RecoveryStatus.SCHEDULED) {
                continue;
            }
            if (s.retryAt() == null) {
                out.add("scheduled attempt " + s.attempt() + " without retry_at");
                continue;
            }
            Instant failedAt = observed.recordedAt.get(s.generation());
            if (failedAt == null) {
                out.add("scheduled attempt " + s.attempt() + ": no record time of the failing turn (generation "
                        + s.generation() + ")");
                continue;
            }
            Duration wait = observed.hintWait.get(s.generation());
            String bounds = boundsViolation(s, failedAt, wait == null ? null : failedAt.plus(wait), config);
            if (bounds != null) {
                out.add(bounds);
            }
        }
        List<Integer> attempts = observed.commands.stream().map(RetryCommand::attempt).toList();
        if (!attempts.equals(scenario.expectedCommands())) {
            out.add("retry commands for attempts " + attempts + " instead of " + scenario.expectedCommands());
        }
        Set<String> ids = new HashSet<>();
        for (RetryCommand c : observed.commands) {
            if (!ids.add(c.commandId())) {
                out.add("duplicate command_id " + c.commandId());
            }
            if (c.issuedAt().isBefore(c.retryAt())) {
                out.add("command " + c.commandId() + " issued at " + c.issuedAt() + " before its retry_at " + c.retryAt());
            }
        }
        if (scenario.trigger() == Trigger.RESTART_WHEN_SCHEDULED) {
            RecoveryState scheduled = observed.states.stream().filter(s -> s.status() == RecoveryStatus.SCHEDULED)
                    .findFirst().orElse(null);
            if (observed.stoppedAt == null || observed.restartedAt == null) {
                out.add("the Streams app was not restarted");
            } else if (scheduled != null && scheduled.retryAt() != null && !observed.stoppedAt.isBefore(scheduled.retryAt())) {
                out.add("the Streams app stopped at " + observed.stoppedAt + ", after retry_at " + scheduled.retryAt()
                        + " (not during the countdown)");
            }
        }
        return out;
    }

    /**
     * The steps of {@code states} in order, consecutive equal steps once: a RecoveryState is written
     * whenever anything it shows changes (DESIGN §6.5), e.g. {@code generation} when the retry's
     * TurnStarted follows its {@code dispatched} ack, which is not a step of the timeline.
     */
    public static List<Step> timeline(List<RecoveryState> states) {
        List<Step> steps = new ArrayList<>();
        for (RecoveryState s : states) {
            Step step = new Step(s.status(), s.attempt(), s.reason());
            if (steps.isEmpty() || !steps.get(steps.size() - 1).equals(step)) {
                steps.add(step);
            }
        }
        return steps;
    }

    /**
     * Why a {@code scheduled} record's {@code retry_at} is outside DESIGN §6.2's bounds, or {@code null}:
     * {@code retry_at = max(failedAt + d, hint)} with {@code d} within nominal × (1 ± jitter) (±1 ms).
     *
     * @param failedAt the failing turn's record time (its terminal frame's append time), the anchor
     * @param hint     the retry-after hint on the record clock ({@code failedAt} + the hint's wait), or {@code null}
     */
    static String boundsViolation(RecoveryState s, Instant failedAt, Instant hint, InteractiveConfig config) {
        Duration nominal = config.nominalDelay(s.attempt());
        long lo = Math.round(nominal.toMillis() * (1 - config.jitterRatio())) - 1;
        long hi = Math.round(nominal.toMillis() * (1 + config.jitterRatio())) + 1;
        long delay = Duration.between(failedAt, s.retryAt()).toMillis();
        if (hint != null) {
            if (s.retryAt().isBefore(hint)) {
                return "attempt " + s.attempt() + ": retry_at " + s.retryAt() + " before the retry-after hint " + hint;
            }
            if (s.retryAt().equals(hint)) {
                return null;
            }
        }
        if (delay < lo || delay > hi) {
            return "attempt " + s.attempt() + ": retry_at − failure = " + delay + " ms, outside [" + lo + ", " + hi + "] ms";
        }
        return null;
    }

    /** Scenarios by session id. */
    public static Map<String, Scenario> bySession(List<Scenario> scenarios) {
        return scenarios.stream().collect(Collectors.toMap(Scenario::sessionId, Function.identity()));
    }

    // ------------------------------------------------------------------ frames

    /** Builds the scripted turns' frames from the bundled samples' payloads (see {@link DemoSamples}). */
    public static final class Frames {

        private final Map<String, DemoSamples.Sample> samples;

        public Frames() {
            this.samples = DemoSamples.load().stream().collect(Collectors.toMap(DemoSamples.Sample::name, Function.identity()));
        }

        /** A copy of frame {@code index} (0-based) of the bundled sample {@code sample}; throws NullPointerException for an unknown sample. */
        public ObjectNode frame(String sample, int index) {
            DemoSamples.Sample s = Objects.requireNonNull(samples.get(sample), sample);
            return s.frames().get(index).deepCopy();
        }

        /**
         * The frames of one turn of {@code scenario}: the {@code session/prompt} request (origin
         * {@code user}, or {@code retry} with {@code command_id} and {@code retry_of_generation}),
         * then {@code turn}'s frames, stamped with consecutive {@code seq} from {@code firstSeq} and
         * {@code occurred_at} 1 ms apart from {@code at}.
         *
         * @param command the RetryCommand this turn answers, or {@code null} for a user prompt
         */
        public List<ObjectNode> turn(Scenario scenario, int generation, long firstSeq, Instant at, Turn turn,
                                     RetryCommand command) {
            String template = scenario.agent().equals("codex") ? "codex_capacity_jsonrpc_error" : "claude_overloaded_529";
            List<ObjectNode> frames = new ArrayList<>();
            ObjectNode prompt = frame(template, 0);
            if (command == null) {
                prompt.put("prompt_origin", "user");
            } else {
                prompt.put("prompt_origin", "retry");
                prompt.put("command_id", command.commandId());
                prompt.put("retry_of_generation", command.expectedGeneration());
            }
            frames.add(prompt);
            switch (turn) {
                case OVERLOADED -> {
                    frames.add(frame("claude_overloaded_529", 1));
                    frames.add(frame("claude_overloaded_529", 3));
                }
                case CAPACITY -> {
                    frames.add(frame("codex_capacity_jsonrpc_error", 1));
                    frames.add(frame("codex_capacity_jsonrpc_error", 2));
                }
                case RATE_LIMITED -> {
                    ObjectNode http = frame("claude_429_with_retry_after_header", 1);
                    ((ObjectNode) http.get("payload").get("headers")).put("retry-after", String.valueOf(scenario.hintSeconds()));
                    frames.add(http);
                    frames.add(frame("claude_429_with_retry_after_header", 2));
                }
                case TOOL_THEN_OVERLOADED -> {
                    frames.add(frame("claude_completed_with_tool", 2));
                    frames.add(frame("claude_completed_with_tool", 3));
                    frames.add(frame("claude_overloaded_529", 1));
                    frames.add(frame("claude_overloaded_529", 3));
                }
                case COMPLETED -> {
                    frames.add(frame("claude_completed_with_tool", 1));
                    frames.add(frame("claude_completed_with_tool", 6));
                }
            }
            int rpcId = 100 + generation;
            for (int i = 0; i < frames.size(); i++) {
                ObjectNode f = frames.get(i);
                f.put("session_id", scenario.sessionId());
                f.put("prompt_generation", generation);
                f.put("seq", firstSeq + i);
                f.put("occurred_at", at.plusMillis(i).toString());
                f.put("agent_type", prompt.get("agent_type").asText());
                f.put("provider_id", prompt.get("provider_id").asText());
                f.put("model_id", prompt.get("model_id").asText());
                f.put("profile_kind", "concrete");
                ObjectNode payload = (ObjectNode) f.get("payload");
                if (payload.has("jsonrpc") && payload.has("id")) {
                    payload.put("id", rpcId); // the request and its response or error share the JSON-RPC id
                }
            }
            return frames;
        }
    }
}
