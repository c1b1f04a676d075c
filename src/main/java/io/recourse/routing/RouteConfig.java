package io.recourse.routing;

import java.util.List;

/**
 * A validated, normalized dynamic profile document (DESIGN §7.1):
 * {@code {dynamic_profile_id, version: 1, fallback_enabled, candidates: [...]}}. Build one with
 * {@link RouteConfigJson#read(String)} (normalizes legacy maps and validates) or construct it and
 * check it with {@link RouteConfigValidator#validate(RouteConfig)}.
 *
 * @param fallbackEnabled when false only {@code candidates[0]} is ever routed to: an exhausted
 *                        route parks instead of skipping
 */
public record RouteConfig(String dynamicProfileId, int version, boolean fallbackEnabled, List<Candidate> candidates) {

    /** The only document version this build understands. */
    public static final int VERSION = 1;

    public RouteConfig {
        candidates = candidates == null ? null : List.copyOf(candidates);
    }

    /**
     * The default document: the given candidates, in order, each with the seed's Office schedule
     * (transient: retry 3 from 5 s, no reset wait, skip; hard: no retry, skip), fallback enabled.
     */
    public static RouteConfig defaultFor(String dynamicProfileId, List<CandidateRef> candidates) {
        return new RouteConfig(dynamicProfileId, VERSION, true, candidates.stream()
                .map(c -> new Candidate(c.executionProfileId(), c.providerId(), c.modelId(), Policies.DEFAULT))
                .toList());
    }

    /** Copy with {@code fallback_enabled} set. */
    public RouteConfig withFallbackEnabled(boolean enabled) {
        return new RouteConfig(dynamicProfileId, version, enabled, candidates);
    }

    /** The candidates routing may use: all of them, or only the first when fallback is disabled. */
    public int routableCount() {
        return fallbackEnabled ? candidates.size() : Math.min(1, candidates.size());
    }
}
