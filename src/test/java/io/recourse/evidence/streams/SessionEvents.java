package io.recourse.evidence.streams;

import io.recourse.evidence.Outcome;
import io.recourse.evidence.SessionStopped;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnExpired;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.TurnStarted;
import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;
import io.recourse.interactive.RetryCommand;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import java.time.Instant;

/** Builders of the SessionEvents the interactive owner consumes (test data, DESIGN §4). */
public final class SessionEvents {

    public static final String PROVIDER = "anthropic";
    public static final String MODEL = "claude-sonnet-4";

    private SessionEvents() {
    }

    public static String promptDigest(String session, int generation) {
        return "prompt-digest-" + session + "-" + generation;
    }

    public static TurnContext user(String session, int generation) {
        return new TurnContext(session, generation, PromptOrigin.USER, null, null, ProfileKind.CONCRETE, "claude-acp",
                "agent-profile-7", "exec-profile-3", PROVIDER, MODEL, null, null, "task-1", false);
    }

    /** The generation a dispatcher creates for {@code command}: carries its command id and expected generation. */
    public static TurnContext retry(String session, int generation, RetryCommand command) {
        return new TurnContext(session, generation, PromptOrigin.RETRY, command.expectedGeneration(),
                command.commandId(), ProfileKind.CONCRETE, "claude-acp", "agent-profile-7", "exec-profile-3", PROVIDER,
                MODEL, null, null, "task-1", false);
    }

    public static TurnStarted started(TurnContext ctx, Instant at) {
        return new TurnStarted(ctx, promptDigest(ctx.sessionId(), ctx.promptGeneration()), "config-digest", at);
    }

    public static TurnStarted startedRetry(TurnContext ctx, RetryCommand command, Instant at) {
        return new TurnStarted(ctx, command.promptDigest(), command.turnConfigDigest(), at);
    }

    public static Classification classification(Code code, Instant retryAfter) {
        return new Classification(code, Confidence.HIGH, "rule." + code.wire() + ".v1", "provider-errors.v1",
                Scope.PROVIDER, retryAfter, null, false);
    }

    /** A failed, replay-safe turn with a high-confidence classification, recorded at {@code at}. */
    public static TurnOutcome failed(TurnContext ctx, Code code, Instant at) {
        return failed(ctx, classification(code, null), true, at);
    }

    public static TurnOutcome failed(TurnContext ctx, Classification c, boolean replaySafe, Instant at) {
        return new TurnOutcome(ctx, Outcome.FAILED, false, "end_turn", false, !replaySafe, replaySafe, c, at, at);
    }

    public static TurnOutcome completed(TurnContext ctx, Instant at) {
        return new TurnOutcome(ctx, Outcome.COMPLETED, false, "end_turn", true, false, false, null, at, at);
    }

    public static TurnExpired expired(TurnContext ctx, Instant at) {
        return new TurnExpired(ctx, at.minusSeconds(7200), at);
    }

    public static SessionStopped stopped(String session, Instant at) {
        return new SessionStopped(new TurnContext(session, 0, null, null, null, ProfileKind.CONCRETE, "claude-acp",
                null, null, null, null, null, null, null, false), at);
    }
}
