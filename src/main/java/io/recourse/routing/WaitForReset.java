package io.recourse.routing;

/**
 * Whether a class policy waits on the same route for a validated reset ({@code reset_at} or
 * {@code retry_after}) no further than {@code max_wait_seconds} away, once per class per route
 * cycle, without spending retry budget (DESIGN §7.2). Valid when enabled: 1..604800 s; disabled: 0.
 */
public record WaitForReset(boolean enabled, long maxWaitSeconds) {

    /** Waiting switched off. */
    public static final WaitForReset OFF = new WaitForReset(false, 0);

    /** Waiting enabled up to {@code maxWaitSeconds}. */
    public static WaitForReset upTo(long maxWaitSeconds) {
        return new WaitForReset(true, maxWaitSeconds);
    }
}
