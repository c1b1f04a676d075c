package io.recourse.interactive;

import io.recourse.evidence.Outcome;
import io.recourse.evidence.SessionStopped;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnExpired;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.TurnProgressed;
import io.recourse.evidence.TurnStarted;
import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import java.time.Instant;

/** Builders of the session events the interactive owner consumes (test data, DESIGN §4). */
public final class Turns {

    public static final String PROVIDER = "anthropic";
    public static final String MODEL = "claude-sonnet-4";
    public static final String AGENT_PROFILE = "agent-profile-7";
    public static final String EXECUTION_PROFILE = "exec-profile-3";

    private Turns() {
    }

    public static String promptDigest(int generation) {
        return "prompt-digest-of-" + generation;
    }

    public static TurnContext context(String session, int generation, PromptOrigin origin, String commandId,
                               Integer retryOf, ProfileKind kind) {
        return new TurnContext(session, generation, origin, retryOf, commandId, kind, "claude-acp",
                AGENT_PROFILE, EXECUTION_PROFILE, PROVIDER, MODEL, null, null, "task-1", false);
    }

    public static TurnContext user(String session, int generation) {
        return context(session, generation, PromptOrigin.USER, null, null, ProfileKind.CONCRETE);
    }

    public static TurnContext retry(String session, int generation, RetryCommand command) {
        return context(session, generation, PromptOrigin.RETRY, command.commandId(), command.expectedGeneration(),
                ProfileKind.CONCRETE);
    }

    public static TurnStarted started(TurnContext ctx, Instant at) {
        return new TurnStarted(ctx, promptDigest(ctx.promptGeneration()), "config-digest", at);
    }

    /** A retry generation starts with the chain's prompt digest (the dispatcher replays the same prompt). */
    public static TurnStarted startedRetry(TurnContext ctx, RetryCommand command, Instant at) {
        return new TurnStarted(ctx, command.promptDigest(), command.turnConfigDigest(), at);
    }

    public static TurnProgressed progressed(TurnContext ctx, Instant at) {
        return new TurnProgressed(ctx, true, false, at);
    }

    public static Classification classification(Code code, Confidence confidence, Instant retryAfter) {
        return new Classification(code, confidence, "rule." + code.wire() + ".v1", "provider-errors.v1",
                Scope.PROVIDER, retryAfter, null, false);
    }

    /** A failed, replay-safe, post-start turn with a high-confidence classification, recorded at {@code at}. */
    public static TurnOutcome failed(TurnContext ctx, Code code, Instant at) {
        return failed(ctx, classification(code, Confidence.HIGH, null), true, false, at);
    }

    public static TurnOutcome failed(TurnContext ctx, Classification c, boolean replaySafe, boolean launch, Instant at) {
        return new TurnOutcome(ctx, Outcome.FAILED, launch, launch ? null : "end_turn", !replaySafe, false,
                replaySafe, c, at, at);
    }

    public static TurnOutcome failedRecordedAt(TurnContext ctx, Code code, Instant occurredAt, Instant recordedAt) {
        return new TurnOutcome(ctx, Outcome.FAILED, false, "end_turn", false, false, true,
                classification(code, Confidence.HIGH, null), occurredAt, recordedAt);
    }

    public static TurnOutcome completed(TurnContext ctx, Instant at) {
        return new TurnOutcome(ctx, Outcome.COMPLETED, false, "end_turn", true, false, false, null, at, at);
    }

    public static TurnOutcome cancelled(TurnContext ctx, Instant at) {
        return new TurnOutcome(ctx, Outcome.CANCELLED, false, "cancelled", false, false, true, null, at, at);
    }

    public static TurnExpired expired(TurnContext ctx, Instant at) {
        return new TurnExpired(ctx, at.minusSeconds(7200), at);
    }

    public static SessionStopped stopped(String session, Instant at) {
        return new SessionStopped(context(session, 0, null, null, null, ProfileKind.CONCRETE), at);
    }
}
