package io.recourse.routing.streams;

import io.recourse.evidence.Outcome;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.TurnStarted;
import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;
import io.recourse.routing.RoutingSimulator;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import java.time.Instant;

/** SessionEvents of a dispatched Office turn, as the evidence stage would emit them (DESIGN §4). */
public final class RoutingEvents {

    private RoutingEvents() {
    }

    /** The context of the turn a RouteCommand dispatched: session {@code <run>/s1}, generation {@code generation}. */
    public static TurnContext turn(io.recourse.avro.RouteCommand c, int generation) {
        return new TurnContext(c.getRunId() + "/s1", generation, PromptOrigin.SCHEDULED, null, c.getCommandId(),
                ProfileKind.DYNAMIC, "test-agent", "dyn", c.getExecutionProfileId(), c.getProviderId(), c.getModelId(),
                c.getRunId(), c.getWorkspaceId(), "task-" + c.getRunId(), false);
    }

    public static TurnStarted started(TurnContext t, Instant at) {
        return new TurnStarted(t, null, null, at);
    }

    /** A completed turn with output. */
    public static TurnOutcome completed(TurnContext t, Instant at) {
        return new TurnOutcome(t, Outcome.COMPLETED, false, "end_turn", true, false, false, null, at, at);
    }

    /** A failed, replay-safe, post-start turn with a high-confidence classification of {@code code}. */
    public static TurnOutcome failed(TurnContext t, Code code, Instant resetAt, Instant at) {
        Classification c = RoutingSimulator.classification(code, Confidence.HIGH, null, resetAt);
        return new TurnOutcome(t, Outcome.FAILED, false, "end_turn", false, false, true, c, at, at);
    }
}
