package io.recourse.routing;

/**
 * One candidate's policy for one error class (the {@code P} of DESIGN §7.1):
 * {@code {retry, wait_for_reset, on_exhausted}}.
 */
public record ClassPolicy(RetryPolicy retry, WaitForReset waitForReset, OnExhausted onExhausted) {

    /** The seed's Office transient schedule: retry 3 from 5 s (5, 10, 20 s), no reset wait, then skip. */
    public static final ClassPolicy DEFAULT_TRANSIENT =
            new ClassPolicy(RetryPolicy.of(3, 5), WaitForReset.OFF, OnExhausted.SKIP);

    /** The seed's Office hard schedule: no retry, no reset wait, then skip. */
    public static final ClassPolicy DEFAULT_HARD = new ClassPolicy(RetryPolicy.OFF, WaitForReset.OFF, OnExhausted.SKIP);

    /** Copy with another retry section. */
    public ClassPolicy withRetry(RetryPolicy r) {
        return new ClassPolicy(r, waitForReset, onExhausted);
    }

    /** Copy with another wait section. */
    public ClassPolicy withWaitForReset(WaitForReset w) {
        return new ClassPolicy(retry, w, onExhausted);
    }

    /** Copy with another exhaustion action. */
    public ClassPolicy withOnExhausted(OnExhausted o) {
        return new ClassPolicy(retry, waitForReset, o);
    }
}
