package io.recourse.routing.streams;

import io.recourse.routing.ParkedRunChange;
import io.recourse.routing.ProviderHealth;
import io.recourse.routing.RouteAttempt;
import io.recourse.routing.RouteCommand;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RoutingDecision;
import io.recourse.routing.Run;
import io.recourse.routing.RunState;
import io.recourse.routing.RunStatus;
import io.recourse.routing.WorkspaceState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The output records of one routing decision (DESIGN §7.4), in the order the owner writes them:
 * route attempts, provider health, parked-run changes, run states, then route commands. A pure
 * function, shared by the owner processor and the tests that compare the topology with the
 * simulator.
 *
 * <p>Run state ends with the run: a run that finished (RunState {@code finished}) or expired (gone
 * from the new state) gets a tombstone on {@code recourse.office.run-state} instead of a value.
 */
public final class RoutingRecords {

    private RoutingRecords() {
    }

    /**
     * The records of {@code d}, decided on {@code before}.
     *
     * @param configs         the validated route configuration by {@code dynamic_profile_id} (for the
     *                        provider and model of a parked run's candidates; may return {@code null})
     * @param dispatchTimeout the router's dispatch timeout: a route command's {@code expires_at} is
     *                        its {@code issued_at} plus this, the due instant of its dispatch-timeout timer
     */
    public static List<RoutingOutput> of(RoutingDecision d, WorkspaceState before, Function<String, RouteConfig> configs,
            java.time.Duration dispatchTimeout) {
        List<RoutingOutput> out = new ArrayList<>();
        for (RouteAttempt a : d.attempts()) {
            out.add(new RoutingOutput(RoutingOutput.Kind.ROUTE_ATTEMPT, a.runId(), RoutingAvro.toAvro(a)));
        }
        for (ProviderHealth h : d.health()) {
            out.add(new RoutingOutput(RoutingOutput.Kind.PROVIDER_HEALTH, h.key().healthKey(), RoutingAvro.toAvro(h)));
        }
        for (ParkedRunChange p : d.parked()) {
            if (p.release()) {
                out.add(new RoutingOutput(RoutingOutput.Kind.PARKED_RUN, p.runId(), null));
            } else {
                Run run = d.state().run(p.runId());
                if (run == null) {
                    run = before.run(p.runId());
                }
                RouteConfig cfg = run == null ? null : configs.apply(run.dynamicProfileId());
                out.add(new RoutingOutput(RoutingOutput.Kind.PARKED_RUN, p.runId(), RoutingAvro.toAvro(p.parked(), cfg)));
            }
        }
        Set<String> ended = new HashSet<>();
        for (RunState s : d.runStates()) {
            if (s.status() == RunStatus.FINISHED) {
                ended.add(s.runId());
                out.add(new RoutingOutput(RoutingOutput.Kind.RUN_STATE, s.runId(), null));
            } else {
                out.add(new RoutingOutput(RoutingOutput.Kind.RUN_STATE, s.runId(), RoutingAvro.toAvro(s)));
            }
        }
        for (String id : d.changedRuns()) {
            if (d.state().run(id) == null && before.run(id) != null && ended.add(id)) {
                out.add(new RoutingOutput(RoutingOutput.Kind.RUN_STATE, id, null));
            }
        }
        for (RouteCommand c : d.commands()) {
            Run run = d.state().run(c.runId());
            out.add(new RoutingOutput(RoutingOutput.Kind.ROUTE_COMMAND, c.runId(),
                    RoutingAvro.toAvro(c, run != null ? run : before.run(c.runId()), dispatchTimeout)));
        }
        return out;
    }
}
