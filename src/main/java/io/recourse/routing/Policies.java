package io.recourse.routing;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.recourse.taxonomy.ErrorClass;

/**
 * A candidate's class policies (DESIGN §7.1 {@code policies: {transient: P, hard: P}}).
 * Codes of class {@code outside} and {@code unclassified} have no policy: routing declines them
 * or applies a launch-path rule (DESIGN §7.2–7.3).
 */
public record Policies(
        @JsonProperty("transient") ClassPolicy transientPolicy,
        @JsonProperty("hard") ClassPolicy hardPolicy) {

    /** The seed's Office schedule ({@link ClassPolicy#DEFAULT_TRANSIENT}, {@link ClassPolicy#DEFAULT_HARD}). */
    public static final Policies DEFAULT = new Policies(ClassPolicy.DEFAULT_TRANSIENT, ClassPolicy.DEFAULT_HARD);

    /**
     * The policy of {@code errorClass}.
     *
     * @throws IllegalArgumentException for {@code outside} and {@code unclassified}
     */
    public ClassPolicy of(ErrorClass errorClass) {
        return switch (errorClass) {
            case TRANSIENT -> transientPolicy;
            case HARD -> hardPolicy;
            case OUTSIDE, UNCLASSIFIED -> throw new IllegalArgumentException("no class policy for " + errorClass.wire());
        };
    }
}
