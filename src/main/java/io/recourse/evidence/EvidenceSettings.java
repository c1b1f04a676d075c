package io.recourse.evidence;

import java.time.Duration;
import java.util.Objects;

/**
 * The evidence stage's settings (DESIGN §4, §8), read once from the configuration
 * ({@code evidence.streams.EvidenceTopology#settings}) and handed to the stage, which sees no other
 * setting.
 *
 * @param bounds              the per-turn evidence bounds ({@code recourse.evidence.max.*})
 * @param idle                a started turn with no frame for this long closes as {@code TurnExpired}
 *                            ({@code recourse.evidence.idle.ms}, default 2 h)
 * @param retention           how long signals and turn state are kept ({@code recourse.evidence.retention.ms})
 * @param punctuationInterval how often the idle scan runs ({@code recourse.punctuation.interval.ms})
 * @param turnCacheEntries    decoded turn states cached per task; 0 = none ({@code recourse.evidence.turn.cache.entries})
 * @param turnCacheBytes      estimated bytes of the cached turn states per task ({@code recourse.evidence.turn.cache.bytes})
 * @throws IllegalArgumentException when a duration is not positive or a cache bound is negative
 */
public record EvidenceSettings(EvidenceBounds bounds, Duration idle, Duration retention, Duration punctuationInterval,
        int turnCacheEntries, long turnCacheBytes) {

    public EvidenceSettings {
        Objects.requireNonNull(bounds, "bounds");
        for (Duration d : new Duration[] {idle, retention, punctuationInterval}) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("evidence durations must be positive, got " + d);
            }
        }
        if (turnCacheEntries < 0 || turnCacheBytes < 0) {
            throw new IllegalArgumentException("evidence turn cache bounds must not be negative");
        }
    }
}
