package io.recourse.bench;

import io.recourse.demo.OfficeTurns;
import io.recourse.demo.RoutingDemoScenario;
import io.recourse.routing.Candidate;
import io.recourse.routing.ClassPolicy;
import io.recourse.routing.Policies;
import io.recourse.routing.RetryPolicy;
import io.recourse.routing.RouteConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The Office side of the realistic workload ({@link Workload.Mix#REALISTIC}): the route
 * configurations its runs use, how its runs map to workspaces and dynamic profiles, and the seeded
 * per-workspace script the bench's dispatcher ({@link BenchDispatcher}) plays (DESIGN §7).
 */
public final class BenchOffice {

    /** Session indexes per Office workspace in the realistic mix (≈ 4 runs per workspace at {@link Workload#OFFICE_FRACTION}). */
    static final int SESSIONS_PER_OFFICE_WORKSPACE = 80;

    /** Dynamic profiles of the realistic mix's Office runs ({@link #officeRouteConfigs()}). */
    public static final int OFFICE_PROFILES = 4;
    /** {@code resets_in_seconds} of the Office runs' quota errors: the reset parked runs wake at. */
    public static final int OFFICE_QUOTA_RESET_SECONDS = 10;
    /**
     * The Office candidates' policies: transient (model capacity) retried twice from 1 s, then skip;
     * hard (quota, auth) not retried, skip — short enough that a run goes through retries, fall-through
     * and parking within a benchmark run.
     */
    static final Policies OFFICE_POLICIES = new Policies(ClassPolicy.DEFAULT_TRANSIENT.withRetry(RetryPolicy.of(2, 1)),
            ClassPolicy.DEFAULT_HARD);

    /**
     * The route configurations of the realistic mix's Office runs: {@value #OFFICE_PROFILES} dynamic
     * profiles {@code bench-dyn-<n>}, each over the routing demo's three candidates
     * ({@link RoutingDemoScenario#CANDIDATES}) with {@link #OFFICE_POLICIES}, fallback enabled.
     */
    public static List<RouteConfig> officeRouteConfigs() {
        List<RouteConfig> out = new ArrayList<>();
        for (int i = 0; i < OFFICE_PROFILES; i++) {
            out.add(new RouteConfig("bench-dyn-" + i, RouteConfig.VERSION, true, RoutingDemoScenario.CANDIDATES.stream()
                    .map(c -> new Candidate(c.executionProfileId(), c.providerId(), c.modelId(), OFFICE_POLICIES)).toList()));
        }
        return List.copyOf(out);
    }

    /** The workspace of the Office run of session index {@code index}: {@code <prefix>-ows-<n>}, n = index / {@value #SESSIONS_PER_OFFICE_WORKSPACE}. */
    static String officeWorkspace(String prefix, int index) {
        return prefix + "-ows-" + index / SESSIONS_PER_OFFICE_WORKSPACE;
    }

    /** The dynamic profile of the Office run of session index {@code index} (one per workspace). */
    static String officeProfile(int index) {
        return "bench-dyn-" + (index / SESSIONS_PER_OFFICE_WORKSPACE) % OFFICE_PROFILES;
    }

    /**
     * How the dispatched turns of an Office workspace end, per candidate (route order, 0-based) and
     * attempt on that candidate (1-based). Health and cooldowns are per workspace (DESIGN §1), so
     * every run of a workspace follows its workspace's script; which script a workspace gets is seeded.
     */
    public enum OfficeScript {
        /** Capacity on the first candidate that clears on the second attempt: short retries (35 %). */
        RETRY_CLEARS(0.35),
        /** Capacity on the first candidate that never clears: retries exhausted, fall-through to the second (20 %). */
        CAPACITY_FALLS_THROUGH(0.20),
        /** Quota (with a reset) on the first candidate: a cooldown, fall-through to the second (15 %). */
        QUOTA_FALLS_THROUGH(0.15),
        /** Auth expired on the first candidate: fall-through to the second (15 %). */
        AUTH_FALLS_THROUGH(0.15),
        /**
         * Capacity on the first, quota on the second until the reset has passed, auth on the third: the run
         * parks until the reset, then succeeds on the second (15 %).
         */
        PARKS(0.15);

        private final double share;

        OfficeScript(double share) {
            this.share = share;
        }

        /** The share of the Office workspaces with this script. */
        public double share() {
            return share;
        }

        /** How the {@code attempt}-th turn (1-based) on candidate {@code candidate} (0-based) ends. */
        public OfficeTurns.End end(int candidate, int attempt) {
            return switch (this) {
                case RETRY_CLEARS -> candidate == 0 && attempt == 1 ? OfficeTurns.End.CAPACITY : OfficeTurns.End.SUCCESS;
                case CAPACITY_FALLS_THROUGH -> candidate == 0 ? OfficeTurns.End.CAPACITY : OfficeTurns.End.SUCCESS;
                case QUOTA_FALLS_THROUGH -> candidate == 0 ? OfficeTurns.End.QUOTA : OfficeTurns.End.SUCCESS;
                case AUTH_FALLS_THROUGH -> candidate == 0 ? OfficeTurns.End.AUTH : OfficeTurns.End.SUCCESS;
                case PARKS -> candidate == 0 ? OfficeTurns.End.CAPACITY
                        : candidate == 1 ? (attempt == 1 ? OfficeTurns.End.QUOTA : OfficeTurns.End.SUCCESS)
                        : OfficeTurns.End.AUTH;
            };
        }

        /** The script of workspace {@code <prefix>-ows-<n>} under {@code seed} (seeded by n, not by the prefix). */
        public static OfficeScript of(long seed, String workspaceId) {
            int n = Integer.parseInt(workspaceId.substring(workspaceId.lastIndexOf('-') + 1));
            double u = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ (0x5DEECE66DL + n)).nextDouble();
            for (OfficeScript s : values()) {
                u -= s.share;
                if (u < 0) {
                    return s;
                }
            }
            return PARKS;
        }
    }

    private BenchOffice() {
    }
}
