package io.recourse.routing;

import java.time.Instant;
import java.util.List;

/**
 * A scope's same-route cooldown (DESIGN §7.3 "cooldown without stampede"): one owner run retries;
 * {@code waiters} (in arrival order) wait without a command. Released when the owner's retried
 * turn progresses or completes, re-evaluated when the owner exhausts, and ends by itself at
 * {@code expiresAt} = the owner's last {@code retry_at} + dispatch timeout + 60 s.
 *
 * @param ordinal the owner's retries scheduled so far on this scope (1-based)
 */
public record Cooldown(ScopeKey scope, String ownerRunId, int ordinal, Instant lastRetryAt, Instant expiresAt,
        List<String> waiters) {

    public Cooldown {
        waiters = List.copyOf(waiters);
    }

    /** Copy with {@code runId} appended to the waiters (no duplicates). */
    public Cooldown withWaiter(String runId) {
        if (waiters.contains(runId) || runId.equals(ownerRunId)) {
            return this;
        }
        List<String> w = new java.util.ArrayList<>(waiters);
        w.add(runId);
        return new Cooldown(scope, ownerRunId, ordinal, lastRetryAt, expiresAt, w);
    }

    /** Copy without {@code runId} among the waiters. */
    public Cooldown withoutWaiter(String runId) {
        return new Cooldown(scope, ownerRunId, ordinal, lastRetryAt, expiresAt,
                waiters.stream().filter(w -> !w.equals(runId)).toList());
    }

    /** True while the cooldown holds at {@code now}. */
    public boolean activeAt(Instant now) {
        return expiresAt.isAfter(now);
    }

    /** The expiry entry of this cooldown. */
    public TimerEntry expiryTimer() {
        return new TimerEntry(RoutingTimerKind.COOLDOWN_EXPIRY, expiresAt, scope.healthKey());
    }
}
