package io.recourse.routing.streams;

import io.recourse.avro.CandidateBlock;
import io.recourse.avro.ClassPolicyValue;
import io.recourse.avro.OfficeDispatchAckValue;
import io.recourse.avro.OfficeInputValue;
import io.recourse.avro.RouteCandidateValue;
import io.recourse.avro.RouteConfigValue;
import io.recourse.avro.RunControlValue;
import io.recourse.avro.RunFinishedValue;
import io.recourse.avro.RunRequestValue;
import io.recourse.kit.DispatchDeadline;
import io.recourse.routing.Candidate;
import io.recourse.routing.CandidateRef;
import io.recourse.routing.ClassPolicy;
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
import io.recourse.routing.WaitForReset;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.DispatchAckReason;
import io.recourse.taxonomy.ErrorClass;
import io.recourse.taxonomy.WireName;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

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

    static Code code(String wire) {
        return wire == null ? null : WireName.parse(Code.class, wire);
    }

    static String wire(WireName w) {
        return w == null ? null : w.wire();
    }
}
