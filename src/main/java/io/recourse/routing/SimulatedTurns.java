package io.recourse.routing;

import io.recourse.evidence.TurnContext;
import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;
import java.util.HashMap;
import java.util.Map;

/**
 * The dispatcher {@link RoutingSimulator} plays: per run, the turn its last confirmed command
 * started — a {@code retry_same_route} re-drives the prompt on the same session (next generation),
 * any other command starts a new session {@code <run>/s<n>} at generation 1.
 */
final class SimulatedTurns {

    /** A run's current turn. */
    private record Turn(String sessionId, int generation, String commandId, CandidateRef candidate, int sessions) {
    }

    private final String workspaceId;
    private final Map<String, Turn> turns = new HashMap<>();

    SimulatedTurns(String workspaceId) {
        this.workspaceId = workspaceId;
    }

    /** The turn the dispatcher starts for command {@code c}; its context. */
    TurnContext dispatched(RouteCommand c) {
        Turn prev = turns.get(c.runId());
        int sessions = prev == null ? 0 : prev.sessions();
        String session;
        int generation;
        if (c.action() == RouteAction.RETRY_SAME_ROUTE && prev != null) {
            session = prev.sessionId();
            generation = prev.generation() + 1;
        } else {
            sessions++;
            session = c.runId() + "/s" + sessions;
            generation = 1;
        }
        Turn t = new Turn(session, generation, c.commandId(), c.candidate(), sessions);
        turns.put(c.runId(), t);
        return context(c.runId(), t);
    }

    /** The context of the run's current turn; throws {@link IllegalStateException} before its first dispatch. */
    TurnContext context(String runId) {
        Turn t = turns.get(runId);
        if (t == null) {
            throw new IllegalStateException("run " + runId + " has no dispatched turn");
        }
        return context(runId, t);
    }

    /** The run's current session, or {@code null} before its first dispatch. */
    String sessionOf(String runId) {
        Turn t = turns.get(runId);
        return t == null ? null : t.sessionId();
    }

    /** The run's current generation (0 before the first dispatch). */
    int generationOf(String runId) {
        Turn t = turns.get(runId);
        return t == null ? 0 : t.generation();
    }

    private TurnContext context(String runId, Turn t) {
        return new TurnContext(t.sessionId(), t.generation(), PromptOrigin.SCHEDULED, null, t.commandId(),
                ProfileKind.DYNAMIC, "sim-agent", "dyn", t.candidate().executionProfileId(), t.candidate().providerId(),
                t.candidate().modelId(), runId, workspaceId, "task-" + runId, false);
    }
}
