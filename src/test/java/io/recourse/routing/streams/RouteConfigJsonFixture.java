package io.recourse.routing.streams;

import io.recourse.routing.Candidate;
import io.recourse.routing.ClassPolicy;
import io.recourse.routing.Policies;
import io.recourse.routing.RetryPolicy;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RouteConfigJson;
import java.util.ArrayList;
import java.util.List;

/** Route configuration JSON documents for tests, valid and invalid. */
public final class RouteConfigJsonFixture {

    private RouteConfigJsonFixture() {
    }

    /** {@code c} as JSON with the first candidate's transient {@code max_retries} set (0 and 11 are invalid when enabled). */
    public static String withMaxRetries(RouteConfig c, int maxRetries) {
        List<Candidate> cands = new ArrayList<>(c.candidates());
        Candidate first = cands.get(0);
        ClassPolicy t = first.policies().transientPolicy()
                .withRetry(new RetryPolicy(true, maxRetries, first.policies().transientPolicy().retry().initialIntervalSeconds()));
        cands.set(0, new Candidate(first.executionProfileId(), first.providerId(), first.modelId(),
                new Policies(t, first.policies().hardPolicy())));
        return RouteConfigJson.write(new RouteConfig(c.dynamicProfileId(), c.version(), c.fallbackEnabled(), cands));
    }
}
