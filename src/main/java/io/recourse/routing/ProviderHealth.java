package io.recourse.routing;

import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Scope;
import java.time.Instant;

/**
 * Health of one scope of one workspace (DESIGN §7.3–7.4, {@code recourse.office.provider-health},
 * compacted by {@link ScopeKey#healthKey()}). Every change is one record.
 *
 * @param scopeValue  the provider id ({@code scope = provider}) or the model id ({@code scope = model})
 * @param retryAt     {@code degraded}: when the scope becomes eligible again; {@code short_retry}: the
 *                    owner's next retry; otherwise {@code null}. Never in the past when written.
 * @param backoffStep ladder steps taken (0 = none; 1..5 = 2, 5, 10, 20, 60 min)
 */
public record ProviderHealth(String workspaceId, String providerId, Scope scope, String scopeValue,
        HealthState state, Code code, Instant retryAt, int backoffStep, Instant lastFailureAt, Instant lastSuccessAt,
        Instant updatedAt) {

    /** The scope this record is about. */
    public ScopeKey key() {
        return new ScopeKey(workspaceId, providerId, scope, scopeValue);
    }

    /** A fresh, healthy record for {@code key}. */
    public static ProviderHealth healthy(ScopeKey key, Instant now) {
        return new ProviderHealth(key.workspaceId(), key.providerId(), key.scope(), key.scopeValue(),
                HealthState.HEALTHY, null, null, 0, null, now, now);
    }

    /** True when the scope blocks routing at {@code now}: user action required, or degraded until after now. */
    public boolean blocks(Instant now) {
        return state == HealthState.USER_ACTION_REQUIRED
                || (state == HealthState.DEGRADED && retryAt != null && retryAt.isAfter(now));
    }
}
