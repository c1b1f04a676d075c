package io.recourse.routing;

import io.recourse.taxonomy.Code;
import java.time.Duration;
import java.time.Instant;

/**
 * Provider health transitions of one scope (DESIGN §7.3): the minute-scale ladder 2, 5, 10, 20,
 * 60 min (±25 % deterministic jitter per health key and step, the step advancing on each repeated
 * degradation), a validated {@code reset_at}/{@code retry_after} in the future replacing the ladder
 * without advancing the step, {@code user_action_required} without a timer, {@code healthy} on a
 * completed turn, {@code probe_allowed} when a timed block ends by itself.
 */
public final class ProviderHealthLadder {

    private final RoutingSettings settings;
    private final JitterSource jitter;

    public ProviderHealthLadder(RoutingSettings settings, JitterSource jitter) {
        this.settings = settings;
        this.jitter = jitter;
    }

    /**
     * The scope degraded by a failure at {@code now}.
     *
     * @param previous the scope's current record, or {@code null}
     * @param hint     a validated reset/retry instant, or {@code null}; used only when after {@code now}
     * @return a {@code degraded} record whose {@code retry_at} is after {@code now}
     */
    public ProviderHealth degrade(ScopeKey key, ProviderHealth previous, Code code, Instant hint, Instant now) {
        return degrade(key, previous, code, hint, now, now);
    }

    /**
     * The scope degraded by a failure recorded at {@code anchor} (the failing turn's record time,
     * DESIGN §8) and processed at {@code now}: the ladder step runs from {@code anchor}, a hint
     * counts when after {@code anchor}, so reprocessing the same failure gives the same
     * {@code retry_at}. Evidence older than its block (a {@code retry_at} not after {@code now})
     * gets {@code retry_at} = now + 1 ms: the record is never written with a past {@code retry_at}.
     */
    public ProviderHealth degrade(ScopeKey key, ProviderHealth previous, Code code, Instant hint, Instant anchor,
            Instant now) {
        int step = previous == null ? 0 : previous.backoffStep();
        Instant retryAt;
        if (hint != null && hint.isAfter(anchor)) {
            retryAt = hint;
        } else {
            step = Math.min(step + 1, settings.ladder().size());
            retryAt = anchor.plus(ladderDelay(key, step));
        }
        return new ProviderHealth(key.workspaceId(), key.providerId(), key.scope(), key.scopeValue(),
                HealthState.DEGRADED, code, ahead(retryAt, now), step, now,
                previous == null ? null : previous.lastSuccessAt(), now);
    }

    private static Instant ahead(Instant at, Instant now) {
        return at.isAfter(now) ? at : now.plusMillis(1);
    }

    /** The jittered delay of ladder step {@code step} (1-based) for {@code key}; always positive. */
    public Duration ladderDelay(ScopeKey key, int step) {
        Duration base = settings.ladder().get(Math.min(step, settings.ladder().size()) - 1);
        double factor = 1.0 + settings.ladderJitter() * jitter.unit("ladder|" + key.healthKey() + "|" + step);
        return Duration.ofMillis(Math.max(1, Math.round(base.toMillis() * factor)));
    }

    /** The scope needs the user (auth, credentials, subscription, model, configuration): no timer. */
    public ProviderHealth userActionRequired(ScopeKey key, ProviderHealth previous, Code code, Instant now) {
        return new ProviderHealth(key.workspaceId(), key.providerId(), key.scope(), key.scopeValue(),
                HealthState.USER_ACTION_REQUIRED, code, null, previous == null ? 0 : previous.backoffStep(), now,
                previous == null ? null : previous.lastSuccessAt(), now);
    }

    /** The scope is in a same-route short phase whose owner retries at {@code retryAt} (no degradation). */
    public ProviderHealth shortRetry(ScopeKey key, ProviderHealth previous, Code code, Instant retryAt, Instant now) {
        return new ProviderHealth(key.workspaceId(), key.providerId(), key.scope(), key.scopeValue(),
                HealthState.SHORT_RETRY, code, ahead(retryAt, now), previous == null ? 0 : previous.backoffStep(), now,
                previous == null ? null : previous.lastSuccessAt(), now);
    }

    /**
     * The scope's timed block ended without new evidence (DESIGN §7.3, §8): a {@code degraded}
     * scope's {@code retry_at} passed, or a {@code short_retry} phase ended by its cooldown's expiry
     * or its owner's decline. {@code probe_allowed}: eligible again, no {@code retry_at}, the code
     * and the ladder step kept (the next degradation climbs from it).
     */
    public static ProviderHealth probeAllowed(ProviderHealth previous, Instant now) {
        return new ProviderHealth(previous.workspaceId(), previous.providerId(), previous.scope(), previous.scopeValue(),
                HealthState.PROBE_ALLOWED, previous.code(), null, previous.backoffStep(), previous.lastFailureAt(),
                previous.lastSuccessAt(), now);
    }

    /** A turn completed on the scope (or the owner's retried turn progressed): healthy, step 0. */
    public ProviderHealth healthy(ScopeKey key, ProviderHealth previous, Instant now) {
        return new ProviderHealth(key.workspaceId(), key.providerId(), key.scope(), key.scopeValue(),
                HealthState.HEALTHY, null, null, 0, previous == null ? null : previous.lastFailureAt(), now, now);
    }
}
