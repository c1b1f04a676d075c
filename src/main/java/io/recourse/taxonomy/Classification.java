package io.recourse.taxonomy;

import java.time.Instant;
import java.util.Objects;

/**
 * The classifier's answer for one failed turn (DESIGN §5): a semantic code with its class, the
 * confidence, the winning rule and catalogue version, the health scope and the validated timing
 * hints.
 *
 * @param ruleId           stable id of the winning rule, e.g. {@code anthropic.overloaded.529.v1};
 *                         the fallback rule id when nothing matched
 * @param catalogueVersion e.g. {@code provider-errors.v1}
 * @param retryAfter       validated throttle hint (UTC instant), or {@code null}; set for
 *                         {@code rate_limited} only
 * @param resetAt          validated quota reset (UTC instant), or {@code null}; set for
 *                         {@code quota_limited} only
 * @param background       true when the classification rests only on background-request signals
 *                         (its confidence is then at most {@code medium})
 */
public record Classification(
        Code code,
        Confidence confidence,
        String ruleId,
        String catalogueVersion,
        Scope scope,
        Instant retryAfter,
        Instant resetAt,
        boolean background) {

    public Classification {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(confidence, "confidence");
        Objects.requireNonNull(ruleId, "ruleId");
        Objects.requireNonNull(catalogueVersion, "catalogueVersion");
        Objects.requireNonNull(scope, "scope");
    }

    /** The code's class (DESIGN §5.1). */
    public ErrorClass errorClass() {
        return code.errorClass();
    }
}
