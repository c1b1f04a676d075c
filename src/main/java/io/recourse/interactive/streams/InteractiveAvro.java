package io.recourse.interactive.streams;

import io.recourse.avro.KanbanDispatchAckValue;
import io.recourse.avro.SessionChain;
import io.recourse.avro.SessionControlValue;
import io.recourse.avro.SessionStateValue;
import io.recourse.interactive.ControlAction;
import io.recourse.interactive.InteractiveDispatchAck;
import io.recourse.interactive.RecoveryReason;
import io.recourse.interactive.RecoveryState;
import io.recourse.interactive.RecoveryStatus;
import io.recourse.interactive.RetryCommand;
import io.recourse.interactive.SessionControl;
import io.recourse.interactive.SessionState;
import io.recourse.kit.DispatchDeadline;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.DispatchAckReason;
import io.recourse.taxonomy.WireName;

/**
 * Mapping between the interactive owner's domain values ({@code io.recourse.interactive}) and
 * their Avro records (DESIGN §6.5, §2): the outputs {@code RetryCommand} and
 * {@code RecoveryState}, the session store's {@code SessionStateValue}, and the repartitioned
 * inputs {@code SessionControlValue} / {@code KanbanDispatchAckValue}. Enums travel as their wire
 * names, instants as {@code timestamp-millis}; {@code null} stays {@code null}. Each
 * {@code fromAvro} inverts its {@code toAvro} up to millisecond precision.
 *
 * @throws IllegalArgumentException (from every {@code fromAvro}) on an unknown wire name
 * @throws NullPointerException (from {@code toAvro(RetryCommand)}) when the command has no code or
 *                              rule id: a retry is only ever scheduled for a classified failure
 */
public final class InteractiveAvro {

    private InteractiveAvro() {
    }

    // ------------------------------------------------------------------ outputs

    /**
     * The Avro RetryCommand of DESIGN §6.5, with {@code expires_at} =
     * {@link DispatchDeadline#expiresAt}({@code issued_at}, {@code dispatchTimeout}).
     *
     * @param dispatchTimeout the owner's dispatch timeout (the policy's configuration), positive
     */
    public static io.recourse.avro.RetryCommand toAvro(RetryCommand c, java.time.Duration dispatchTimeout) {
        return io.recourse.avro.RetryCommand.newBuilder()
                .setCommandId(c.commandId())
                .setSessionId(c.sessionId())
                .setExpectedGeneration(c.expectedGeneration())
                .setChainStartGeneration(c.chainStartGeneration())
                .setAttempt(c.attempt())
                .setMaxAttempts(c.maxAttempts())
                .setCode(c.code().wire())
                .setRuleId(java.util.Objects.requireNonNull(c.ruleId(), "ruleId"))
                .setPromptDigest(c.promptDigest())
                .setTurnConfigDigest(c.turnConfigDigest())
                .setAgentProfileId(c.agentProfileId())
                .setExecutionProfileId(c.executionProfileId())
                .setModelId(c.modelId())
                .setRetryAt(c.retryAt())
                .setIssuedAt(c.issuedAt())
                .setExpiresAt(DispatchDeadline.expiresAt(c.issuedAt(), dispatchTimeout))
                .build();
    }

    /** The domain RetryCommand of an Avro one (consumers, tests). */
    public static RetryCommand fromAvro(io.recourse.avro.RetryCommand c) {
        return new RetryCommand(c.getCommandId(), c.getSessionId(), c.getExpectedGeneration(),
                c.getChainStartGeneration(), c.getAttempt(), c.getMaxAttempts(), Code.fromWire(c.getCode()),
                c.getRuleId(), c.getPromptDigest(), c.getTurnConfigDigest(), c.getAgentProfileId(),
                c.getExecutionProfileId(), c.getModelId(), c.getRetryAt(), c.getIssuedAt());
    }

    /** The Avro RecoveryState of DESIGN §6.5 ({@code errorClass} as field {@code class}). */
    public static io.recourse.avro.RecoveryState toAvro(RecoveryState s) {
        return io.recourse.avro.RecoveryState.newBuilder()
                .setSessionId(s.sessionId())
                .setGeneration(s.generation())
                .setStatus(s.status().wire())
                .setCode(wire(s.code()))
                .setClass$(wire(s.errorClass()))
                .setDisposition(s.disposition().wire())
                .setAttempt(s.attempt())
                .setMaxAttempts(s.maxAttempts())
                .setRetryAt(s.retryAt())
                .setProviderLabel(s.providerLabel())
                .setModelLabel(s.modelLabel())
                .setRuleId(s.ruleId())
                .setReason(wire(s.reason()))
                .setUpdatedAt(s.updatedAt())
                .setResetAt(s.resetAt())
                .setRemediation(wire(s.remediation()))
                .build();
    }

    /** The domain RecoveryState of an Avro one (consumers, tests). */
    public static RecoveryState fromAvro(io.recourse.avro.RecoveryState s) {
        Code code = s.getCode() == null ? null : Code.fromWire(s.getCode());
        return new RecoveryState(s.getSessionId(), s.getGeneration(), RecoveryStatus.fromWire(s.getStatus()), code,
                s.getClass$() == null ? null : WireName.parse(io.recourse.taxonomy.ErrorClass.class, s.getClass$()),
                io.recourse.interactive.Disposition.fromWire(s.getDisposition()), s.getAttempt(), s.getMaxAttempts(),
                s.getRetryAt(), s.getProviderLabel(), s.getModelLabel(), s.getRuleId(),
                s.getReason() == null ? null : RecoveryReason.fromWire(s.getReason()), s.getUpdatedAt(),
                s.getResetAt(), s.getRemediation() == null ? null : io.recourse.taxonomy.Remediation.fromWire(s.getRemediation()));
    }

    // ------------------------------------------------------------------ session store

    /** The store value of a session's state. */
    public static SessionStateValue toAvro(SessionState s) {
        SessionState.Chain c = s.chain();
        return SessionStateValue.newBuilder()
                .setSessionId(s.sessionId())
                .setHighestGeneration(s.highestGeneration())
                .setLastOutcomeGeneration(s.lastOutcomeGeneration())
                .setLastEventAt(s.lastEventAt())
                .setStatus(s.status().wire())
                .setReason(wire(s.reason()))
                .setCode(wire(s.code()))
                .setRuleId(s.ruleId())
                .setProviderId(s.providerId())
                .setModelId(s.modelId())
                .setStartedGeneration(s.startedGeneration())
                .setStartedPromptDigest(s.startedPromptDigest())
                .setStartedTurnConfigDigest(s.startedTurnConfigDigest())
                .setChain(c == null ? null : SessionChain.newBuilder()
                        .setStartGeneration(c.startGeneration())
                        .setAttempt(c.attempt())
                        .setExpectedGeneration(c.expectedGeneration())
                        .setPendingCommandId(c.pendingCommandId())
                        .setRetryAt(c.retryAt())
                        .setIssuedAt(c.issuedAt())
                        .setDispatchTimeoutAt(c.dispatchTimeoutAt())
                        .setRetryGeneration(c.retryGeneration())
                        .setPromptDigest(c.promptDigest())
                        .setTurnConfigDigest(c.turnConfigDigest())
                        .setAgentProfileId(c.agentProfileId())
                        .setExecutionProfileId(c.executionProfileId())
                        .setModelId(c.modelId())
                        .build())
                .setResetAt(s.resetAt())
                .build();
    }

    /** The session state held in a store value. */
    public static SessionState fromAvro(SessionStateValue v) {
        SessionChain c = v.getChain();
        SessionState.Chain chain = c == null ? null : new SessionState.Chain(c.getStartGeneration(), c.getAttempt(),
                c.getExpectedGeneration(), c.getPendingCommandId(), c.getRetryAt(), c.getIssuedAt(),
                c.getDispatchTimeoutAt(), c.getRetryGeneration(), c.getPromptDigest(), c.getTurnConfigDigest(),
                c.getAgentProfileId(), c.getExecutionProfileId(), c.getModelId());
        return new SessionState(v.getSessionId(), v.getHighestGeneration(), v.getLastOutcomeGeneration(),
                v.getLastEventAt(), RecoveryStatus.fromWire(v.getStatus()),
                v.getReason() == null ? null : RecoveryReason.fromWire(v.getReason()),
                v.getCode() == null ? null : Code.fromWire(v.getCode()), v.getRuleId(), v.getProviderId(),
                v.getModelId(), v.getStartedGeneration(), v.getStartedPromptDigest(), v.getStartedTurnConfigDigest(),
                chain, v.getResetAt());
    }

    // ------------------------------------------------------------------ repartitioned inputs

    /** The repartition-topic value of a validated control. */
    public static SessionControlValue toAvro(SessionControl c) {
        return SessionControlValue.newBuilder()
                .setAction(c.action().wire())
                .setSessionId(c.sessionId())
                .setExpectedGeneration(c.expectedGeneration())
                .setOccurredAt(c.occurredAt())
                .build();
    }

    /** The control carried by a repartition-topic value. */
    public static SessionControl fromAvro(SessionControlValue c) {
        return new SessionControl(ControlAction.fromWire(c.getAction()), c.getSessionId(), c.getExpectedGeneration(),
                c.getOccurredAt());
    }

    /** The repartition-topic value of a validated ack. */
    public static KanbanDispatchAckValue toAvro(InteractiveDispatchAck a) {
        return KanbanDispatchAckValue.newBuilder()
                .setCommandId(a.commandId())
                .setStatus(a.status().wire())
                .setReason(wire(a.reason()))
                .setReasonDetail(a.reasonDetail())
                .setSessionId(a.sessionId())
                .setPromptGeneration(a.promptGeneration())
                .setOccurredAt(a.occurredAt())
                .build();
    }

    /** The ack carried by a repartition-topic value. */
    public static InteractiveDispatchAck fromAvro(KanbanDispatchAckValue a) {
        return new InteractiveDispatchAck(a.getCommandId(), AckStatus.fromWire(a.getStatus()),
                DispatchAckReason.fromInput(a.getReason()), a.getReasonDetail(), a.getSessionId(), a.getPromptGeneration(), a.getOccurredAt());
    }

    private static String wire(WireName value) {
        return value == null ? null : value.wire();
    }
}
