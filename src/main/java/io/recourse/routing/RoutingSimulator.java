package io.recourse.routing;

import io.recourse.evidence.Outcome;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.TurnProgressed;
import io.recourse.evidence.TurnStarted;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.DispatchAckReason;
import io.recourse.taxonomy.Scope;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A deterministic driver of {@link Router} for one workspace: it feeds a scripted timeline
 * (run requests, failures, progress, completions, controls, acks, clock advances) through the
 * decision functions, keeps the state and a time index exactly as the streaming owner does (cancel
 * then arm; due entries fire in key order at their due instant), plays a dispatcher that confirms
 * each command at once (ack {@code dispatched} + TurnStarted, unless the run is {@link #silence silenced}),
 * and records a printable timeline. Single-threaded; not thread-safe.
 */
public final class RoutingSimulator {

    private final Router router;
    private final String workspaceId;
    private final Instant start;
    private Instant now;
    private WorkspaceState state;
    private final TreeSet<TimerEntry> timers = new TreeSet<>(TimerEntry.ORDER);
    private final SimulatorTimeline timeline;
    private final List<RoutingDecision> decisions = new ArrayList<>();
    private final List<Instant> decisionTimes = new ArrayList<>();
    private final List<RouteCommand> commands = new ArrayList<>();
    private final Map<String, ProviderHealth> healthTable = new java.util.TreeMap<>();
    private final Map<String, ParkedRun> parkedRuns = new java.util.TreeMap<>();
    private final Set<String> silenced = new HashSet<>();
    private final SimulatedTurns turns;
    private final List<Step> inputs = new ArrayList<>();

    /**
     * One input fed to the router: at {@code at}, {@code input} (a RunRequest, RunFinished,
     * RunControl, RoutingDispatchAck, SessionEvent or a fired {@link TimerEntry}) — the script a
     * streaming replay of this timeline pipes in, in order.
     */
    public record Step(Instant at, Object input) {
    }

    /** A simulator at {@code start} with an empty workspace. */
    public RoutingSimulator(Router router, String workspaceId, Instant start) {
        this.router = router;
        this.workspaceId = workspaceId;
        this.start = start;
        this.now = start;
        this.state = WorkspaceState.empty(workspaceId);
        this.timeline = new SimulatorTimeline(start);
        this.turns = new SimulatedTurns(workspaceId);
    }

    // ------------------------------------------------------------------ script steps

    /** A RunRequest for {@code runId} on {@code dynamicProfileId}, now. */
    public RoutingDecision request(String runId, String dynamicProfileId) {
        return feed("request " + runId,
                new RunRequest("req-" + runId, runId, workspaceId, dynamicProfileId, "task-" + runId, now));
    }

    /** A failed turn of the run's current turn, high confidence, post-start, replay-safe. */
    public RoutingDecision fail(String runId, Code code) {
        return fail(runId, classification(code, Confidence.HIGH, null, null), false, false);
    }

    /**
     * A failed TurnOutcome of the run's current turn, recorded now.
     *
     * @param launch      a launch failure (pre-start)
     * @param effectsSeen assistant output was seen before the failure (then not replay-safe)
     */
    public RoutingDecision fail(String runId, Classification c, boolean launch, boolean effectsSeen) {
        TurnContext t = turns.context(runId);
        return feed("fail " + runId + " " + c.code().wire() + (launch ? " (launch)" : "") + (effectsSeen ? " (after effects)" : ""),
                new TurnOutcome(t, Outcome.FAILED, launch, launch ? null : "end_turn", effectsSeen, false,
                        !effectsSeen, c, now, now));
    }

    /** The run's current turn shows its first output. */
    public RoutingDecision progress(String runId) {
        return feed("progress " + runId, new TurnProgressed(turns.context(runId), true, false, now));
    }

    /** The run's current turn completes. */
    public RoutingDecision complete(String runId) {
        return feed("complete " + runId, new TurnOutcome(turns.context(runId), Outcome.COMPLETED, false, "end_turn", true,
                false, false, null, now, now));
    }

    /** A control fenced on the run's current attempt. */
    public RoutingDecision control(String runId, RunControlAction action) {
        Run r = state.run(runId);
        return control(runId, action, r == null ? 0 : r.attempt());
    }

    /** A control with an explicit {@code expectedAttempt}. */
    public RoutingDecision control(String runId, RunControlAction action, int expectedAttempt) {
        return feed("control " + runId + " " + action.wire() + " @" + expectedAttempt,
                new RunControl(runId, workspaceId, action, expectedAttempt, now));
    }

    /** The dispatcher reports the run's pending command failed. */
    public RoutingDecision ackFailed(String runId, String reason) {
        Run r = state.run(runId);
        String cmd = r == null ? null : r.pendingCommandId();
        return feed("ack failed " + runId, new RoutingDispatchAck(cmd == null ? "none" : cmd, AckStatus.FAILED, DispatchAckReason.fromInput(reason),
                runId, workspaceId, null, null, now));
    }

    /** RunFinished for the run. */
    public RoutingDecision finish(String runId) {
        return feed("finish " + runId, new RunFinished(runId, workspaceId, now));
    }

    /** Feeds any input (for scripted edge cases: stale events, foreign acks). */
    public RoutingDecision input(String label, Object input) {
        return feed(label, input);
    }

    /** From now on the dispatcher never confirms this run's commands. */
    public void silence(String runId) {
        silenced.add(runId);
    }

    /** Advances the clock by {@code d}, firing every entry due on the way at its due instant, in key order. */
    public void advance(Duration d) {
        advanceTo(now.plus(d));
    }

    /** Advances the clock to {@code target} (never backwards), firing due entries in order. */
    public void advanceTo(Instant target) {
        while (!timers.isEmpty() && !timers.first().due().isAfter(target)) {
            TimerEntry t = timers.pollFirst();
            if (t.due().isAfter(now)) {
                now = t.due();
            }
            feed("timer " + t.kind().wire() + " " + t.id(), t);
        }
        if (target.isAfter(now)) {
            now = target;
        }
    }

    // ------------------------------------------------------------------ views

    /** The current processing instant. */
    public Instant now() {
        return now;
    }

    /** The workspace state after the last decision. */
    public WorkspaceState state() {
        return state;
    }

    /** A run's current state, or {@code null}. */
    public Run run(String runId) {
        return state.run(runId);
    }

    /** Every RouteCommand written so far, in order. */
    public List<RouteCommand> commands() {
        return List.copyOf(commands);
    }

    /** Every input fed so far, in order, with its processing instant (index for index with {@link #decisions()}). */
    public List<Step> inputs() {
        return List.copyOf(inputs);
    }

    /** Every decision so far, in order. */
    public List<RoutingDecision> decisions() {
        return List.copyOf(decisions);
    }

    /** The processing instant of each decision in {@link #decisions()}, index for index. */
    public List<Instant> decisionTimes() {
        return List.copyOf(decisionTimes);
    }

    /** The latest ProviderHealth per health key. */
    public Map<String, ProviderHealth> healthTable() {
        return Map.copyOf(healthTable);
    }

    /** The parked-run table (released runs removed). */
    public Map<String, ParkedRun> parkedRuns() {
        return Map.copyOf(parkedRuns);
    }

    /** The armed time-index entries, in key order. */
    public List<TimerEntry> timers() {
        return List.copyOf(timers);
    }

    /** The printable timeline so far, one line per input or output. */
    public List<String> timeline() {
        return timeline.lines();
    }

    /** Prints the timeline, the health table and the parked runs. */
    public void print(PrintStream out) {
        timeline.print(out, healthTable, parkedRuns);
    }

    // ------------------------------------------------------------------ helpers

    /** A classification of {@code code} with the code's natural scope ({@code model} for model codes). */
    public static Classification classification(Code code, Confidence confidence, Instant retryAfter, Instant resetAt) {
        Scope scope = code == Code.MODEL_CAPACITY || code == Code.MODEL_UNAVAILABLE ? Scope.MODEL : Scope.PROVIDER;
        return new Classification(code, confidence, "sim." + code.wire() + ".v1", "provider-errors.v1", scope,
                retryAfter, resetAt, false);
    }

    private RoutingDecision feed(String label, Object input) {
        inputs.add(new Step(now, input));
        RoutingDecision d = router.decide(input, state, now);
        decisions.add(d);
        decisionTimes.add(now);
        state = d.state();
        d.cancel().forEach(timers::remove);
        timers.addAll(d.arm());
        for (ProviderHealth h : d.health()) {
            healthTable.put(h.key().healthKey(), h);
        }
        for (ParkedRunChange p : d.parked()) {
            if (p.release()) {
                parkedRuns.remove(p.runId());
            } else {
                parkedRuns.put(p.runId(), p.parked());
            }
        }
        commands.addAll(d.commands());
        timeline.record(now, label, d);
        for (RouteCommand c : d.commands()) {
            if (c.action() != RouteAction.DECLINE && !silenced.contains(c.runId())) {
                confirmDispatch(c);
            }
        }
        return d;
    }

    private void confirmDispatch(RouteCommand c) {
        TurnContext t = turns.dispatched(c);
        feed("ack dispatched " + c.commandId(), new RoutingDispatchAck(c.commandId(), AckStatus.DISPATCHED, null, c.runId(),
                workspaceId, t.sessionId(), t.promptGeneration(), now));
        feed("started " + c.runId() + " " + t.sessionId() + "/" + t.promptGeneration(), new TurnStarted(t, null, null, now));
    }

    /** The simulated dispatcher's current session of a run, or {@code null} before its first dispatch. */
    public String sessionOf(String runId) {
        return turns.sessionOf(runId);
    }

    /** The dispatcher's current generation of a run (0 before the first dispatch). */
    public int generationOf(String runId) {
        return turns.generationOf(runId);
    }

    /** A TurnContext of the run's current turn, for hand-built events in tests. */
    public TurnContext currentContext(String runId) {
        return turns.context(runId);
    }

    /** The start instant. */
    public Instant start() {
        return start;
    }

    /** Feeds a session event built by the caller. */
    public RoutingDecision event(String label, SessionEvent e) {
        return feed(label, e);
    }
}
