package io.recourse.routing;

import io.recourse.taxonomy.WireName;
import java.time.Instant;

/**
 * The evaluator's answer for one failed turn (DESIGN §7.2), before workspace rules (cooldowns,
 * candidate selection, parking) apply it.
 *
 * @param kind       what to do with the run
 * @param path       the path the code rules chose
 * @param action     for {@code retry} and {@code wait_for_reset}: the effect-safe command action
 * @param dueAt      for {@code retry} and {@code wait_for_reset}: when the same-route command is due
 * @param ordinal    for {@code retry}: the retry's 1-based ordinal
 * @param maxRetries the class policy's retry budget
 * @param health     what happens to the failed scope's health
 * @param hint       the validated hint that applies ({@code retry_after} / {@code reset_at}), or {@code null}
 * @param reason     for {@code decline}/{@code stop}: the reason (a {@link RunReason} or the code); otherwise
 *                   the path (or, for a weak launch, {@code low_confidence}); its {@code wire()} is the value written
 */
public record Verdict(Kind kind, RoutePath path, RouteAction action, Instant dueAt, int ordinal, int maxRetries,
        HealthEffect health, Instant hint, WireName reason) {

    /** What to do with the run. */
    public enum Kind {
        /** Give the run back to the platform: RouteCommand {@code decline}, RunState {@code declined}. */
        DECLINE,
        /** A same-route retry at {@code dueAt}. */
        RETRY,
        /** Wait on the same route for the validated reset at {@code dueAt} (once per class per cycle). */
        WAIT_FOR_RESET,
        /** The route is done for this cycle: next candidate, else park (launch_unknown: else decline). */
        SKIP,
        /** {@code on_exhausted: stop}: decline with {@code policy_stop}. */
        STOP
    }

    /** The failed scope's health change. */
    public enum HealthEffect {
        NONE, SHORT_RETRY, DEGRADE, USER_ACTION
    }

    static Verdict decline(RoutePath path, WireName reason) {
        return new Verdict(Kind.DECLINE, path, RouteAction.DECLINE, null, 0, 0, HealthEffect.NONE, null, reason);
    }
}
