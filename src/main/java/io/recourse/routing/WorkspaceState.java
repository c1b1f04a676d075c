package io.recourse.routing;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything the routing owner keeps for one workspace (DESIGN §7, one partition): its runs by
 * {@code run_id}, provider health and cooldowns by scope. Immutable; decisions return a new one.
 * Finished runs are removed.
 */
public record WorkspaceState(String workspaceId, Map<String, Run> runs, Map<ScopeKey, ProviderHealth> health,
        Map<ScopeKey, Cooldown> cooldowns) {

    public WorkspaceState {
        runs = Collections.unmodifiableMap(new LinkedHashMap<>(runs));
        health = Collections.unmodifiableMap(new LinkedHashMap<>(health));
        cooldowns = Collections.unmodifiableMap(new LinkedHashMap<>(cooldowns));
    }

    /** A workspace Recourse knows nothing about yet. */
    public static WorkspaceState empty(String workspaceId) {
        return new WorkspaceState(workspaceId, Map.of(), Map.of(), Map.of());
    }

    /** The run, or {@code null}. */
    public Run run(String runId) {
        return runs.get(runId);
    }
}
