package io.recourse.kit;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * The {@code expires_at} of a dispatcher command (RetryCommand, RouteCommand; README
 * "Dispatching", DESIGN §6.3, §7.3 "Dispatch"): the command's {@code issued_at} plus the owner's
 * dispatch timeout ({@code recourse.dispatch.timeout.ms}, as scaled for the owner), to the
 * millisecond. It is the due instant of the dispatch-timeout timer each owner arms when it writes
 * the command, so the deadline a dispatcher reads and the one the owner acts on are one instant.
 * The owner may act later than that (it measures from max({@code issued_at}, the moment its task
 * reached RUNNING), so a restart only moves its deadline later), never earlier.
 */
public final class DispatchDeadline {

    private DispatchDeadline() {
    }

    /**
     * @param issuedAt        the command's {@code issued_at} (UTC)
     * @param dispatchTimeout the owner's dispatch timeout, positive
     * @return {@code issuedAt + dispatchTimeout}, truncated to milliseconds (the precision of
     *         {@code timestamp-millis})
     * @throws NullPointerException when an argument is {@code null}
     */
    public static Instant expiresAt(Instant issuedAt, Duration dispatchTimeout) {
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(dispatchTimeout, "dispatchTimeout");
        return issuedAt.plus(dispatchTimeout).truncatedTo(ChronoUnit.MILLIS);
    }
}
