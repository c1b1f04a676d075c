package io.recourse.routing;

import java.time.Duration;
import java.util.List;

/**
 * The fixed numbers of the routing owner (DESIGN §7.3, §8). {@link #DEFAULTS} holds the design's.
 *
 * @param dispatchTimeout  an issued command with neither ack nor TurnStarted after this → {@code failed_other} + decline (30 s)
 * @param stalenessBound   processing time − TurnOutcome.recordedAt beyond this → decline (5 min)
 * @param maxRouteAttempts dispatches per run before parking {@code max_route_attempts} (20)
 * @param cooldownGrace    a cooldown expires at the owner's last retry_at + dispatch timeout + this (60 s)
 * @param shortHintMax     {@code rate_limited} is short only with a validated hint at most this far away (60 s)
 * @param retryJitter      ± fraction of a same-route delay (0.20)
 * @param ladderJitter     ± fraction of a health ladder step (0.25)
 * @param ladder           the health ladder (2, 5, 10, 20, 60 min); the last step repeats
 * @param maxDelay         cap of a computed same-route delay (24 h)
 * @param runRetention     a run's state ends this long after its last event (7 days)
 */
public record RoutingSettings(Duration dispatchTimeout, Duration stalenessBound, int maxRouteAttempts,
        Duration cooldownGrace, Duration shortHintMax, double retryJitter, double ladderJitter, List<Duration> ladder,
        Duration maxDelay, Duration runRetention) {

    /** The design's numbers. */
    public static final RoutingSettings DEFAULTS = new RoutingSettings(Duration.ofSeconds(30), Duration.ofMinutes(5), 20,
            Duration.ofSeconds(60), Duration.ofSeconds(60), 0.20, 0.25,
            List.of(Duration.ofMinutes(2), Duration.ofMinutes(5), Duration.ofMinutes(10), Duration.ofMinutes(20),
                    Duration.ofMinutes(60)),
            Duration.ofHours(24), Duration.ofDays(7));

    public RoutingSettings {
        ladder = List.copyOf(ladder);
        if (ladder.isEmpty()) {
            throw new IllegalArgumentException("ladder must not be empty");
        }
    }
}
