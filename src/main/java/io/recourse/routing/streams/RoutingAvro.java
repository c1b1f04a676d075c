package io.recourse.routing.streams;

import io.recourse.avro.CandidateBlock;
import io.recourse.avro.ClassPolicyValue;
import io.recourse.avro.OfficeDispatchAckValue;
import io.recourse.avro.OfficeInputValue;
import io.recourse.avro.RouteCandidateValue;
import io.recourse.avro.RouteConfigValue;
import io.recourse.avro.RoutingRunValue;
import io.recourse.avro.RoutingWorkspaceValue;
import io.recourse.avro.RunControlValue;
import io.recourse.avro.RunFinishedValue;
import io.recourse.avro.RunRequestValue;
import io.recourse.avro.ScopeValue;
import io.recourse.avro.StoredCooldownValue;
import io.recourse.avro.StoredHealthValue;
import io.recourse.kit.DispatchDeadline;
import io.recourse.routing.Candidate;
import io.recourse.routing.CandidateRef;
import io.recourse.routing.ClassPolicy;
import io.recourse.routing.Cooldown;
import io.recourse.routing.HealthState;
import io.recourse.routing.OnExhausted;
import io.recourse.routing.ParkedRun;
import io.recourse.routing.Policies;
import io.recourse.routing.ProviderHealth;
import io.recourse.routing.RetryPolicy;
import io.recourse.routing.RouteAttempt;
import io.recourse.routing.RouteCommand;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RoutingDispatchAck;
import io.recourse.routing.Run;
import io.recourse.routing.RunControl;
import io.recourse.routing.RunControlAction;
import io.recourse.routing.RunFinished;
import io.recourse.routing.RunRequest;
import io.recourse.routing.RunState;
import io.recourse.routing.RunStatus;
import io.recourse.routing.ScopeKey;
import io.recourse.routing.WaitForReset;
import io.recourse.routing.WorkspaceState;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.DispatchAckReason;
import io.recourse.taxonomy.ErrorClass;
import io.recourse.taxonomy.Scope;
import io.recourse.taxonomy.WireName;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Mapping between the routing owner's domain values ({@code io.recourse.routing}) and the Avro
 * records of {@code schemas/} (DESIGN §2, §7.4): the five outputs, the validated route
 * configuration, the Office inputs on the repartition topics and the two store values. Enums
 * travel as wire names, instants as {@code timestamp-millis}, {@code null} stays {@code null}.
 *
 * @throws IllegalArgumentException (from every {@code from…}) on an unknown wire name
 */
public final class RoutingAvro {

    private RoutingAvro() {
    }

    // ------------------------------------------------------------------ outputs

    /**
     * RouteCommand → Avro; the candidate is flattened. {@code expires_at} =
     * {@link DispatchDeadline#expiresAt}({@code issued_at}, {@code dispatchTimeout}), {@code null}
     * for a decline (nothing to dispatch); {@code task_id} and {@code dynamic_profile_id} come from
     * {@code run} ({@code null} when it is {@code null}).
     *
     * @param run             the command's run (after or, when it ended, before the decision), or {@code null}
     * @param dispatchTimeout the owner's dispatch timeout ({@link io.recourse.routing.RoutingSettings#dispatchTimeout})
     */
    public static io.recourse.avro.RouteCommand toAvro(RouteCommand c, Run run, java.time.Duration dispatchTimeout) {
        CandidateRef cand = c.candidate();
        return io.recourse.avro.RouteCommand.newBuilder()
                .setCommandId(c.commandId()).setRunId(c.runId()).setWorkspaceId(c.workspaceId())
                .setSessionId(c.sessionId()).setExpectedGeneration(c.expectedGeneration())
                .setAction(c.action().wire())
                .setExecutionProfileId(cand == null ? null : cand.executionProfileId())
                .setProviderId(cand == null ? null : cand.providerId())
                .setModelId(cand == null ? null : cand.modelId())
                .setReason(c.reason()).setCode(wire(c.code())).setRuleId(c.ruleId())
                .setAttempt(c.attempt()).setIssuedAt(c.issuedAt())
                .setExpiresAt(c.action() == io.recourse.routing.RouteAction.DECLINE ? null
                        : DispatchDeadline.expiresAt(c.issuedAt(), dispatchTimeout))
                .setTaskId(run == null ? null : run.taskId())
                .setDynamicProfileId(run == null ? null : run.dynamicProfileId())
                .build();
    }

    /** RunState → Avro; {@code retry_ordinal}/{@code max_retries} are null when no retry is scheduled. */
    public static io.recourse.avro.RunState toAvro(RunState s) {
        CandidateRef cand = s.candidate();
        boolean retry = s.retryAt() != null;
        return io.recourse.avro.RunState.newBuilder()
                .setRunId(s.runId()).setWorkspaceId(s.workspaceId()).setStatus(s.status().wire())
                .setExecutionProfileId(cand == null ? null : cand.executionProfileId())
                .setProviderId(cand == null ? null : cand.providerId())
                .setModelId(cand == null ? null : cand.modelId())
                .setAttempt(s.attempt()).setRetryAt(s.retryAt())
                .setRetryOrdinal(retry ? s.retryOrdinal() : null).setMaxRetries(retry ? s.maxRetries() : null)
                .setWakeAt(s.wakeAt()).setCode(wire(s.code())).setReason(s.reason()).setUpdatedAt(s.updatedAt())
                .build();
    }

    /** RouteAttempt → Avro; the reset hint is {@code reset_at} for a hard code, else {@code retry_after}. */
    public static io.recourse.avro.RouteAttempt toAvro(RouteAttempt a) {
        CandidateRef cand = a.candidate();
        boolean hard = a.code() != null && a.code().errorClass() == ErrorClass.HARD;
        return io.recourse.avro.RouteAttempt.newBuilder()
                .setRunId(a.runId()).setWorkspaceId(a.workspaceId()).setSequence(a.sequence())
                .setExecutionProfileId(cand == null ? null : cand.executionProfileId())
                .setProviderId(cand == null ? null : cand.providerId())
                .setModelId(cand == null ? null : cand.modelId())
                .setOutcome(a.outcome().wire()).setCode(wire(a.code())).setConfidence(wire(a.confidence()))
                .setRuleId(a.ruleId()).setPhase(wire(a.phase()))
                .setRetryAfter(hard ? null : a.resetHint()).setResetAt(hard ? a.resetHint() : null)
                .setStartedAt(a.startedAt()).setFinishedAt(a.finishedAt())
                .build();
    }

    /** ProviderHealth → Avro (the record of the compacted health topic). */
    public static io.recourse.avro.ProviderHealth toAvro(ProviderHealth h) {
        return io.recourse.avro.ProviderHealth.newBuilder()
                .setWorkspaceId(h.workspaceId()).setProviderId(h.providerId()).setScope(h.scope().wire())
                .setScopeValue(h.scopeValue()).setState(h.state().wire()).setCode(wire(h.code()))
                .setRetryAt(h.retryAt()).setBackoffStep(h.backoffStep()).setLastFailureAt(h.lastFailureAt())
                .setLastSuccessAt(h.lastSuccessAt()).setUpdatedAt(h.updatedAt())
                .build();
    }

    /**
     * ParkedRun → Avro. Each candidate's reason ({@code <reason>[:<code>][ until <instant>]}, as the
     * router writes it) becomes a {@code CandidateBlock}; provider and model come from {@code config}
     * (may be {@code null}).
     */
    public static io.recourse.avro.ParkedRun toAvro(ParkedRun p, RouteConfig config) {
        List<CandidateBlock> blocks = new ArrayList<>();
        p.reasons().forEach((profile, text) -> {
            String reason = text;
            Instant until = null;
            int u = reason.indexOf(" until ");
            if (u >= 0) {
                try {
                    until = Instant.parse(reason.substring(u + 7).trim());
                } catch (DateTimeParseException e) {
                    until = null;
                }
                reason = reason.substring(0, u);
            }
            String code = null;
            int colon = reason.indexOf(':');
            if (colon >= 0) {
                code = reason.substring(colon + 1);
                reason = reason.substring(0, colon);
            }
            Candidate c = config == null ? null : config.candidates().stream()
                    .filter(x -> x.executionProfileId().equals(profile)).findFirst().orElse(null);
            blocks.add(CandidateBlock.newBuilder().setExecutionProfileId(profile)
                    .setProviderId(c == null ? null : c.providerId()).setModelId(c == null ? null : c.modelId())
                    .setReason(reason).setCode(code == null || code.isEmpty() || code.equals("null") ? null : code)
                    .setAvailableAt(until).build());
        });
        return io.recourse.avro.ParkedRun.newBuilder()
                .setRunId(p.runId()).setWorkspaceId(p.workspaceId()).setStatus(p.status().wire())
                .setWakeAt(p.wakeAt()).setCandidates(blocks).setReason(p.reason()).setParkedAt(p.parkedAt())
                .build();
    }

    // ------------------------------------------------------------------ route configuration

    /** A validated document → its Avro form on {@code recourse.route-config.validated}. */
    public static RouteConfigValue toAvro(RouteConfig c) {
        return RouteConfigValue.newBuilder()
                .setDynamicProfileId(c.dynamicProfileId()).setVersion(c.version()).setFallbackEnabled(c.fallbackEnabled())
                .setCandidates(c.candidates().stream().map(x -> RouteCandidateValue.newBuilder()
                        .setExecutionProfileId(x.executionProfileId()).setProviderId(x.providerId()).setModelId(x.modelId())
                        .setTransientPolicy(toAvro(x.policies().transientPolicy()))
                        .setHardPolicy(toAvro(x.policies().hardPolicy())).build()).toList())
                .build();
    }

    /** The Avro form of a validated document → the router's {@link RouteConfig}. */
    public static RouteConfig fromAvro(RouteConfigValue v) {
        return new RouteConfig(v.getDynamicProfileId(), v.getVersion(), v.getFallbackEnabled(), v.getCandidates().stream()
                .map(x -> new Candidate(x.getExecutionProfileId(), x.getProviderId(), x.getModelId(),
                        new Policies(fromAvro(x.getTransientPolicy()), fromAvro(x.getHardPolicy()))))
                .toList());
    }

    private static ClassPolicyValue toAvro(ClassPolicy p) {
        return ClassPolicyValue.newBuilder()
                .setRetryEnabled(p.retry().enabled()).setMaxRetries(p.retry().maxRetries())
                .setInitialIntervalSeconds(p.retry().initialIntervalSeconds())
                .setWaitForResetEnabled(p.waitForReset().enabled()).setMaxWaitSeconds(p.waitForReset().maxWaitSeconds())
                .setOnExhausted(p.onExhausted().wire())
                .build();
    }

    private static ClassPolicy fromAvro(ClassPolicyValue v) {
        return new ClassPolicy(new RetryPolicy(v.getRetryEnabled(), v.getMaxRetries(), v.getInitialIntervalSeconds()),
                new WaitForReset(v.getWaitForResetEnabled(), v.getMaxWaitSeconds()), OnExhausted.fromWire(v.getOnExhausted()));
    }

    // ------------------------------------------------------------------ Office inputs

    /** A RunRequest, RunFinished, RunControl or RoutingDispatchAck → the repartition topics' value. */
    public static OfficeInputValue toAvroInput(Object input) {
        Object inner;
        if (input instanceof RunRequest r) {
            inner = RunRequestValue.newBuilder().setRequestId(r.requestId()).setRunId(r.runId())
                    .setWorkspaceId(r.workspaceId()).setDynamicProfileId(r.dynamicProfileId()).setTaskId(r.taskId())
                    .setOccurredAt(r.occurredAt()).build();
        } else if (input instanceof RunFinished f) {
            inner = RunFinishedValue.newBuilder().setRunId(f.runId()).setWorkspaceId(f.workspaceId())
                    .setOccurredAt(f.occurredAt()).build();
        } else if (input instanceof RunControl c) {
            inner = RunControlValue.newBuilder().setRunId(c.runId()).setWorkspaceId(c.workspaceId())
                    .setAction(c.action().wire()).setExpectedAttempt(c.expectedAttempt()).setOccurredAt(c.occurredAt()).build();
        } else if (input instanceof RoutingDispatchAck a) {
            inner = OfficeDispatchAckValue.newBuilder().setCommandId(a.commandId()).setStatus(a.status().wire())
                    .setReason(wire(a.reason())).setReasonDetail(a.reasonDetail()).setRunId(a.runId()).setWorkspaceId(a.workspaceId()).setSessionId(a.sessionId())
                    .setPromptGeneration(a.promptGeneration()).setOccurredAt(a.occurredAt()).build();
        } else {
            throw new IllegalArgumentException("not an Office input: " + (input == null ? null : input.getClass()));
        }
        return OfficeInputValue.newBuilder().setInput(inner).build();
    }

    /** The inverse of {@link #toAvroInput}. */
    public static Object fromAvroInput(OfficeInputValue v) {
        Object inner = v.getInput();
        if (inner instanceof RunRequestValue r) {
            return new RunRequest(r.getRequestId(), r.getRunId(), r.getWorkspaceId(), r.getDynamicProfileId(), r.getTaskId(),
                    r.getOccurredAt());
        }
        if (inner instanceof RunFinishedValue f) {
            return new RunFinished(f.getRunId(), f.getWorkspaceId(), f.getOccurredAt());
        }
        if (inner instanceof RunControlValue c) {
            return new RunControl(c.getRunId(), c.getWorkspaceId(), WireName.parse(RunControlAction.class, c.getAction()),
                    c.getExpectedAttempt(), c.getOccurredAt());
        }
        if (inner instanceof OfficeDispatchAckValue a) {
            return new RoutingDispatchAck(a.getCommandId(), WireName.parse(AckStatus.class, a.getStatus()),
                    DispatchAckReason.fromInput(a.getReason()), a.getReasonDetail(),
                    a.getRunId(), a.getWorkspaceId(), a.getSessionId(), a.getPromptGeneration(), a.getOccurredAt());
        }
        throw new IllegalArgumentException("unknown Office input branch " + (inner == null ? null : inner.getClass()));
    }

    // ------------------------------------------------------------------ store values

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
                .setCode(wire(r.code())).setReason(r.reason()).setUpdatedAt(r.updatedAt())
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
                v.getWaitingOn() == null ? null : fromAvro(v.getWaitingOn()), code(v.getCode()), v.getReason(),
                v.getUpdatedAt());
    }

    /** Health and cooldowns of a workspace → its store value. */
    public static RoutingWorkspaceValue toAvro(WorkspaceState s) {
        return RoutingWorkspaceValue.newBuilder()
                .setWorkspaceId(s.workspaceId())
                .setHealth(s.health().values().stream().map(h -> StoredHealthValue.newBuilder()
                        .setWorkspaceId(h.workspaceId()).setProviderId(h.providerId()).setScope(h.scope().wire())
                        .setScopeValue(h.scopeValue()).setState(h.state().wire()).setCode(wire(h.code()))
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
                        code(h.getCode()), h.getRetryAt(), h.getBackoffStep(), h.getLastFailureAt(), h.getLastSuccessAt(),
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

    private static Code code(String wire) {
        return wire == null ? null : WireName.parse(Code.class, wire);
    }

    private static String wire(WireName w) {
        return w == null ? null : w.wire();
    }
}
