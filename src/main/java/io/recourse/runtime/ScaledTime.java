package io.recourse.runtime;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Time;

/**
 * The injected clock of the demos' {@code --time-scale N} (DESIGN §8): from {@code origin} on it runs
 * {@code N}× faster than the wall clock, so every timer, hint, ladder, timeout and bound expressed on
 * it passes {@code N}× sooner. Pass it to Kafka Streams ({@code RecourseRunner(config, topology, time)});
 * map record timestamps (wall clock) through {@link #scaled(Instant)} before comparing them with it.
 * Thread-safe.
 */
public final class ScaledTime implements Time {

    private final long originMs;
    private final long originNanos;
    private final double scale;

    /**
     * @param origin the instant at which the scaled clock equals the wall clock
     * @param scale  speed-up factor, ≥ 1
     * @throws IllegalArgumentException when {@code scale < 1}
     */
    public ScaledTime(Instant origin, double scale) {
        if (!(scale >= 1)) {
            throw new IllegalArgumentException("time scale must be >= 1, got " + scale);
        }
        this.originMs = origin.toEpochMilli();
        this.originNanos = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis() - originMs);
        this.scale = scale;
    }

    /** The speed-up factor. */
    public double scale() {
        return scale;
    }

    /** The scaled clock now. */
    public Instant now() {
        return Instant.ofEpochMilli(milliseconds());
    }

    /** A wall-clock instant (e.g. a record timestamp) on the scaled clock. */
    public Instant scaled(Instant wall) {
        return Instant.ofEpochMilli(originMs + Math.round((wall.toEpochMilli() - originMs) * scale));
    }

    @Override
    public long milliseconds() {
        return originMs + Math.round((System.currentTimeMillis() - originMs) * scale);
    }

    @Override
    public long nanoseconds() {
        return originNanos + Math.round((System.nanoTime() - originNanos) * scale);
    }

    /** Sleeps {@code ms} of scaled time ({@code ms / scale} of wall time). */
    @Override
    public void sleep(long ms) {
        try {
            Thread.sleep(Math.max(0, Math.round(ms / scale)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
