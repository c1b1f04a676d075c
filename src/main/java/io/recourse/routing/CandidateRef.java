package io.recourse.routing;

/** The identity of a candidate on output records (DESIGN §7.4 "candidate"): execution profile, provider, model. */
public record CandidateRef(String executionProfileId, String providerId, String modelId) {
}
