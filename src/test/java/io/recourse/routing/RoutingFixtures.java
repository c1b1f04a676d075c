package io.recourse.routing;

import io.recourse.classification.Classification;
import io.recourse.classification.Code;
import io.recourse.classification.Confidence;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Shared fixtures of the routing tests: a three-candidate profile and a fixed clock. */
final class RoutingFixtures {

    static final Instant T0 = Instant.parse("2026-11-30T08:00:00Z");
    static final String WS = "ws-1";
    static final String PROFILE = "dyn-office";

    static final CandidateRef CODEX = new CandidateRef("codex-gpt5", "openai", "gpt-5");
    static final CandidateRef CLAUDE = new CandidateRef("claude-sonnet", "anthropic", "claude-sonnet-4");
    static final CandidateRef GEMINI = new CandidateRef("gemini-pro", "google", "gemini-2.5-pro");

    private RoutingFixtures() {
    }

    static RouteConfig threeCandidates() {
        return RouteConfig.defaultFor(PROFILE, List.of(CODEX, CLAUDE, GEMINI));
    }

    static OfficeRouter router(RouteConfig config) {
        return new OfficeRouter(RoutingSettings.DEFAULTS, JitterSource.none(), Map.of(config.dynamicProfileId(), config)::get);
    }

    static RoutingSimulator simulator(RouteConfig config) {
        return new RoutingSimulator(router(config), WS, T0);
    }

    static Classification high(Code code) {
        return RoutingSimulator.classification(code, Confidence.HIGH, null, null);
    }
}
