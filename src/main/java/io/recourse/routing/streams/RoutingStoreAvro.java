package io.recourse.routing.streams;

import io.recourse.avro.RoutingRunValue;
import io.recourse.avro.RoutingWorkspaceValue;
import io.recourse.avro.ScopeValue;
import io.recourse.avro.StoredCooldownValue;
import io.recourse.avro.StoredHealthValue;
import io.recourse.routing.Cooldown;
import io.recourse.routing.HealthState;
import io.recourse.routing.ProviderHealth;
import io.recourse.routing.Run;
import io.recourse.routing.RunStatus;
import io.recourse.routing.ScopeKey;
import io.recourse.routing.WorkspaceState;
import io.recourse.taxonomy.ErrorClass;
import io.recourse.taxonomy.Scope;
import io.recourse.taxonomy.WireName;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The routing owner's store values (DESIGN §7, §11): a {@link Run} ↔ {@code RoutingRunValue}
 * (store {@value RoutingTopology#RUNS_STORE}) and a workspace's health and cooldowns ↔
 * {@code RoutingWorkspaceValue} (store {@value RoutingTopology#WORKSPACES_STORE}). Wire names as in
 * {@link RoutingAvro}; a value read back equals the value written.
 */
public final class RoutingStoreAvro {

    private RoutingStoreAvro() {
    }

    /** A run → its store value. */
    public static RoutingRunValue toAvro(Run r) {
        return RoutingRunValue.newBuilder()
                .setRunId(r.runId()).setWorkspaceId(r.workspaceId()).setDynamicProfileId(r.dynamicProfileId())
                .setTaskId(r.taskId()).setRequestId(r.requestId()).setStatus(r.status().wire())
                .setCandidateIndex(r.candidateIndex()).setAttempt(r.attempt()).setCycle(r.cycle())
                .setExcluded(new ArrayList<>(r.excluded()))
                .setResetWaitsUsed(r.resetWaitsUsed().stream().map(ErrorClass::wire).toList())
                .setRetryOrdinal(r.retryOrdinal()).setMaxRetries(r.maxRetries()).setRetryAt(r.retryAt())
                .setWakeAt(r.wakeAt()).setParked(r.parked()).setPendingCommandId(r.pendingCommandId())
                .setPendingIssuedAt(r.pendingIssuedAt()).setLastDispatchedCandidate(r.lastDispatchedCandidate())
                .setLastFailureReplaySafe(r.lastFailureReplaySafe()).setSessionId(r.sessionId())
                .setGenerations(new LinkedHashMap<>(r.generations()))
                .setWaitingOn(r.waitingOn() == null ? null : toAvro(r.waitingOn()))
                .setCode(RoutingAvro.wire(r.code())).setReason(r.reason()).setUpdatedAt(r.updatedAt())
                .build();
    }

    /** A store value → the run. */
    public static Run fromAvro(RoutingRunValue v) {
        Set<ErrorClass> waits = EnumSet.noneOf(ErrorClass.class);
        v.getResetWaitsUsed().forEach(w -> waits.add(WireName.parse(ErrorClass.class, w)));
        Map<String, Integer> generations = new LinkedHashMap<>();
        v.getGenerations().forEach((k, g) -> generations.put(k.toString(), g));
        return new Run(v.getRunId(), v.getWorkspaceId(), v.getDynamicProfileId(), v.getTaskId(), v.getRequestId(),
                RunStatus.fromWire(v.getStatus()), v.getCandidateIndex(), v.getAttempt(), v.getCycle(),
                new HashSet<>(v.getExcluded()), waits, v.getRetryOrdinal(), v.getMaxRetries(), v.getRetryAt(),
                v.getWakeAt(), v.getParked(), v.getPendingCommandId(), v.getPendingIssuedAt(),
                v.getLastDispatchedCandidate(), v.getLastFailureReplaySafe(), v.getSessionId(), generations,
                v.getWaitingOn() == null ? null : fromAvro(v.getWaitingOn()), RoutingAvro.code(v.getCode()), v.getReason(),
                v.getUpdatedAt());
    }

    /** Health and cooldowns of a workspace → its store value. */
    public static RoutingWorkspaceValue toAvro(WorkspaceState s) {
        return RoutingWorkspaceValue.newBuilder()
                .setWorkspaceId(s.workspaceId())
                .setHealth(s.health().values().stream().map(h -> StoredHealthValue.newBuilder()
                        .setWorkspaceId(h.workspaceId()).setProviderId(h.providerId()).setScope(h.scope().wire())
                        .setScopeValue(h.scopeValue()).setState(h.state().wire()).setCode(RoutingAvro.wire(h.code()))
                        .setRetryAt(h.retryAt()).setBackoffStep(h.backoffStep()).setLastFailureAt(h.lastFailureAt())
                        .setLastSuccessAt(h.lastSuccessAt()).setUpdatedAt(h.updatedAt()).build()).toList())
                .setCooldowns(s.cooldowns().values().stream().map(c -> StoredCooldownValue.newBuilder()
                        .setProviderId(c.scope().providerId()).setScope(c.scope().scope().wire())
                        .setScopeValue(c.scope().scopeValue()).setOwnerRunId(c.ownerRunId()).setOrdinal(c.ordinal())
                        .setLastRetryAt(c.lastRetryAt()).setExpiresAt(c.expiresAt()).setWaiters(c.waiters()).build())
                        .toList())
                .build();
    }

    /** The workspace state of a store value (may be {@code null}) and the workspace's runs. */
    public static WorkspaceState fromAvro(String workspaceId, RoutingWorkspaceValue v, Map<String, Run> runs) {
        Map<ScopeKey, ProviderHealth> health = new LinkedHashMap<>();
        Map<ScopeKey, Cooldown> cooldowns = new LinkedHashMap<>();
        if (v != null) {
            for (StoredHealthValue h : v.getHealth()) {
                ProviderHealth p = new ProviderHealth(h.getWorkspaceId(), h.getProviderId(),
                        WireName.parse(Scope.class, h.getScope()), h.getScopeValue(), HealthState.fromWire(h.getState()),
                        RoutingAvro.code(h.getCode()), h.getRetryAt(), h.getBackoffStep(), h.getLastFailureAt(), h.getLastSuccessAt(),
                        h.getUpdatedAt());
                health.put(p.key(), p);
            }
            for (StoredCooldownValue c : v.getCooldowns()) {
                ScopeKey scope = new ScopeKey(workspaceId, c.getProviderId(), WireName.parse(Scope.class, c.getScope()),
                        c.getScopeValue());
                cooldowns.put(scope, new Cooldown(scope, c.getOwnerRunId(), c.getOrdinal(), c.getLastRetryAt(),
                        c.getExpiresAt(), c.getWaiters().stream().map(Object::toString).toList()));
            }
        }
        return new WorkspaceState(workspaceId, runs, health, cooldowns);
    }

    private static ScopeValue toAvro(ScopeKey k) {
        return ScopeValue.newBuilder().setWorkspaceId(k.workspaceId()).setProviderId(k.providerId())
                .setScope(k.scope().wire()).setScopeValue(k.scopeValue()).build();
    }

    private static ScopeKey fromAvro(ScopeValue v) {
        return new ScopeKey(v.getWorkspaceId(), v.getProviderId(), WireName.parse(Scope.class, v.getScope()), v.getScopeValue());
    }
}
