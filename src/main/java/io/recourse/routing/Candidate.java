package io.recourse.routing;

/**
 * One concrete execution profile in a dynamic profile's ordered list (DESIGN §7.1).
 * All three ids are required and non-blank.
 */
public record Candidate(String executionProfileId, String providerId, String modelId, Policies policies) {

    /** A candidate with the default Office policies. */
    public static Candidate of(String executionProfileId, String providerId, String modelId) {
        return new Candidate(executionProfileId, providerId, modelId, Policies.DEFAULT);
    }

    /** The identity part, as carried on RouteCommands, RunStates and RouteAttempts. */
    public CandidateRef ref() {
        return new CandidateRef(executionProfileId, providerId, modelId);
    }
}
