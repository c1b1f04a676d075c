package io.recourse.routing;

import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Shared fixtures of the routing tests: a three-candidate profile and a fixed clock. */
public final class RoutingFixtures {

    public static final Instant T0 = Instant.parse("2026-11-30T08:00:00Z");
    public static final String WS = "ws-1";
    public static final String PROFILE = "dyn-office";

    public static final CandidateRef CODEX = new CandidateRef("codex-gpt5", "openai", "gpt-5");
    public static final CandidateRef CLAUDE = new CandidateRef("claude-sonnet", "anthropic", "claude-sonnet-4");
    public static final CandidateRef GEMINI = new CandidateRef("gemini-pro", "google", "gemini-2.5-pro");

    private RoutingFixtures() {
    }

    public static RouteConfig threeCandidates() {
        return RouteConfig.defaultFor(PROFILE, List.of(CODEX, CLAUDE, GEMINI));
    }

    public static Router router(RouteConfig config) {
        return new Router(RoutingSettings.DEFAULTS, JitterSource.none(), Map.of(config.dynamicProfileId(), config)::get);
    }

    public static RoutingSimulator simulator(RouteConfig config) {
        return new RoutingSimulator(router(config), WS, T0);
    }

    public static Classification high(Code code) {
        return RoutingSimulator.classification(code, Confidence.HIGH, null, null);
    }
}
