package io.recourse.routing;

import io.recourse.evidence.Sanitizer;
import io.recourse.ingress.StrictJson;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The one validator of route configuration documents (DESIGN §7.1). Rules: {@code version} 1;
 * 1..{@value #MAX_CANDIDATES} candidates with non-blank, unique {@code execution_profile_id} and
 * non-blank {@code provider_id} / {@code model_id} that the sanitizer leaves unchanged (DESIGN §9); every id (the profile's included) at most
 * {@value #MAX_ID_LENGTH} characters without control characters; per class policy: {@code max_retries} 1..10 and
 * {@code initial_interval_seconds} 1..3600 when retry is enabled, {@code max_wait_seconds}
 * 1..604800 when waiting is enabled, disabled sections carry zeros, {@code on_exhausted} present.
 * (The computed delay's 24 h cap is applied by the evaluator, not rejected here.)
 */
public final class RouteConfigValidator {

    /** Most candidates a profile may list. */
    public static final int MAX_CANDIDATES = 32;
    /** Longest id ({@code dynamic_profile_id}, {@code execution_profile_id}, {@code provider_id}, {@code model_id}). */
    public static final int MAX_ID_LENGTH = StrictJson.MAX_ID_LENGTH;
    /** Upper bound of {@code max_retries}. */
    public static final int MAX_RETRIES = 10;
    /** Upper bound of {@code initial_interval_seconds}. */
    public static final int MAX_INITIAL_INTERVAL_SECONDS = 3600;
    /** Upper bound of {@code max_wait_seconds} (7 days). */
    public static final long MAX_WAIT_SECONDS = 604_800;

    private RouteConfigValidator() {
    }

    /** All errors of {@code config}, in document order; empty when it is valid. */
    public static List<RouteConfigError> validate(RouteConfig config) {
        List<RouteConfigError> errors = new ArrayList<>();
        if (config == null) {
            errors.add(new RouteConfigError("$", "document is missing"));
            return errors;
        }
        id("dynamic_profile_id", config.dynamicProfileId(), errors);
        if (config.version() != RouteConfig.VERSION) {
            errors.add(new RouteConfigError("version", "must be 1, was " + config.version()));
        }
        if (config.candidates() == null || config.candidates().isEmpty()) {
            errors.add(new RouteConfigError("candidates", "must list at least one candidate"));
            return errors;
        }
        if (config.candidates().size() > MAX_CANDIDATES) {
            errors.add(new RouteConfigError("candidates", "must list at most " + MAX_CANDIDATES + " candidates"));
            return errors;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < config.candidates().size(); i++) {
            String at = "candidates[" + i + "]";
            Candidate c = config.candidates().get(i);
            if (c == null) {
                errors.add(new RouteConfigError(at, "must not be null"));
                continue;
            }
            if (id(at + ".execution_profile_id", c.executionProfileId(), errors) && !seen.add(c.executionProfileId())) {
                errors.add(new RouteConfigError(at + ".execution_profile_id", "duplicate candidate"));
            }
            if (id(at + ".provider_id", c.providerId(), errors)) {
                clean(at + ".provider_id", c.providerId(), errors);
            }
            if (id(at + ".model_id", c.modelId(), errors)) {
                clean(at + ".model_id", c.modelId(), errors);
            }
            if (c.policies() == null) {
                errors.add(new RouteConfigError(at + ".policies", "must be present"));
                continue;
            }
            policy(at + ".policies.transient", c.policies().transientPolicy(), errors);
            policy(at + ".policies.hard", c.policies().hardPolicy(), errors);
        }
        return errors;
    }

    private static void policy(String at, ClassPolicy p, List<RouteConfigError> errors) {
        if (p == null) {
            errors.add(new RouteConfigError(at, "must be present"));
            return;
        }
        RetryPolicy r = p.retry();
        if (r == null) {
            errors.add(new RouteConfigError(at + ".retry", "must be present"));
        } else if (r.enabled()) {
            range(at + ".retry.max_retries", r.maxRetries(), 1, MAX_RETRIES, errors);
            range(at + ".retry.initial_interval_seconds", r.initialIntervalSeconds(), 1, MAX_INITIAL_INTERVAL_SECONDS, errors);
        } else {
            zero(at + ".retry.max_retries", r.maxRetries(), errors);
            zero(at + ".retry.initial_interval_seconds", r.initialIntervalSeconds(), errors);
        }
        WaitForReset w = p.waitForReset();
        if (w == null) {
            errors.add(new RouteConfigError(at + ".wait_for_reset", "must be present"));
        } else if (w.enabled()) {
            range(at + ".wait_for_reset.max_wait_seconds", w.maxWaitSeconds(), 1, MAX_WAIT_SECONDS, errors);
        } else {
            zero(at + ".wait_for_reset.max_wait_seconds", w.maxWaitSeconds(), errors);
        }
        if (p.onExhausted() == null) {
            errors.add(new RouteConfigError(at + ".on_exhausted", "must be skip or stop"));
        }
    }

    private static void range(String at, long v, long min, long max, List<RouteConfigError> errors) {
        if (v < min || v > max) {
            errors.add(new RouteConfigError(at, "must be " + min + ".." + max + " when enabled, was " + v));
        }
    }

    private static void zero(String at, long v, List<RouteConfigError> errors) {
        if (v != 0) {
            errors.add(new RouteConfigError(at, "must be 0 when disabled, was " + v));
        }
    }

    /**
     * A provider or model id travels into RouteCommands, RunState, RouteAttempts and
     * ProviderHealth keys: one the sanitizer would change (it holds a credential, a URL, an
     * e-mail address, …; DESIGN §9) is rejected rather than published.
     */
    private static void clean(String at, String id, List<RouteConfigError> errors) {
        if (!blank(id) && !Sanitizer.sanitize(id).equals(id)) {
            errors.add(new RouteConfigError(at, "holds text the sanitizer redacts (DESIGN §9)"));
        }
    }

    /** Checks one id; true when it is valid. */
    private static boolean id(String at, String v, List<RouteConfigError> errors) {
        if (blank(v)) {
            errors.add(new RouteConfigError(at, "must not be blank"));
            return false;
        }
        if (v.length() > MAX_ID_LENGTH) {
            errors.add(new RouteConfigError(at, "must be at most " + MAX_ID_LENGTH + " characters"));
            return false;
        }
        if (StrictJson.hasControl(v)) {
            errors.add(new RouteConfigError(at, "must not contain control characters"));
            return false;
        }
        return true;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
