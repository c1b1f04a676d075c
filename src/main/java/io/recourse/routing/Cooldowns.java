package io.recourse.routing;

/**
 * The cooldowns of one decision's workspace (DESIGN §7.3 "cooldown without stampede"): adding,
 * removing and looking up a scope's cooldown in a {@link RoutingDraft}, keeping its expiry entry in
 * the time index in step. Releasing a cooldown re-routes its waiters: that is {@link RouteWalk#releaseCooldown}.
 */
final class Cooldowns {

    private Cooldowns() {
    }

    /** Removes the scope's cooldown and cancels its expiry; the removed cooldown, or {@code null}. */
    static Cooldown remove(RoutingDraft x, ScopeKey key) {
        Cooldown cd = x.cooldowns.remove(key);
        if (cd != null) {
            x.cancel(cd.expiryTimer());
        }
        return cd;
    }

    /** Stores {@code cd}; its expiry is (re)armed when it is new or its expiry moved. */
    static void put(RoutingDraft x, Cooldown cd) {
        Cooldown prev = x.cooldowns.put(cd.scope(), cd);
        if (prev == null || !prev.expiresAt().equals(cd.expiresAt())) {
            if (prev != null) {
                x.cancel(prev.expiryTimer());
            }
            x.arm(cd.expiryTimer());
        }
    }

    /** The run stops waiting on the cooldown it waits on, if any. */
    static void leave(RoutingDraft x, Run.Builder b) {
        if (b.waitingOn != null) {
            Cooldown cd = x.cooldowns.get(b.waitingOn);
            if (cd != null) {
                x.cooldowns.put(cd.scope(), cd.withoutWaiter(b.runId));
            }
            b.waitingOn = null;
        }
    }

    /** The cooldown {@code runId} owns, or {@code null}. */
    static Cooldown ownedBy(RoutingDraft x, String runId) {
        return x.cooldowns.values().stream().filter(c -> c.ownerRunId().equals(runId)).findFirst().orElse(null);
    }

    /** An active cooldown of another run on one of the candidate's scopes, or {@code null}. */
    static Cooldown activeOfOther(RoutingDraft x, Candidate c, String runId) {
        for (ScopeKey k : RoutingDraft.scopesOf(x.workspaceId, c)) {
            Cooldown cd = x.cooldowns.get(k);
            if (cd != null && cd.activeAt(x.now) && !cd.ownerRunId().equals(runId)) {
                return cd;
            }
        }
        return null;
    }
}
