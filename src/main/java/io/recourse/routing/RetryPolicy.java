package io.recourse.routing;

/**
 * Same-route retries of one class policy (DESIGN §7.1): {@code max_retries} retries whose nominal
 * delays are {@code initial_interval_seconds × 2^ordinal} (ordinal 0-based), jittered ±20 %.
 * Valid when enabled: {@code max_retries} 1..10, {@code initial_interval_seconds} 1..3600;
 * disabled: both 0.
 */
public record RetryPolicy(boolean enabled, int maxRetries, int initialIntervalSeconds) {

    /** Retries switched off (zeros, as validation demands). */
    public static final RetryPolicy OFF = new RetryPolicy(false, 0, 0);

    /** Enabled retries: {@code maxRetries} retries starting at {@code initialIntervalSeconds}. */
    public static RetryPolicy of(int maxRetries, int initialIntervalSeconds) {
        return new RetryPolicy(true, maxRetries, initialIntervalSeconds);
    }

    /** Retries this policy allows: {@code max_retries} when enabled, else 0. */
    public int budget() {
        return enabled ? maxRetries : 0;
    }
}
