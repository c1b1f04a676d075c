package io.recourse.evidence.streams;

import static io.recourse.kit.AvroConversions.parse;
import static io.recourse.kit.AvroConversions.wire;

import io.recourse.avro.EvidenceSignal;
import io.recourse.avro.StoredSignal;
import io.recourse.avro.TurnClassification;
import io.recourse.avro.UnclassifiedEvidence;
import io.recourse.evidence.Evidence;
import io.recourse.evidence.Outcome;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.SessionStopped;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.TurnExpired;
import io.recourse.evidence.TurnOutcome;
import io.recourse.evidence.TurnProgressed;
import io.recourse.evidence.TurnStarted;
import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Phase;
import io.recourse.ingress.ProfileKind;
import io.recourse.ingress.PromptOrigin;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import io.recourse.taxonomy.WireName;
import java.util.List;
import java.util.TreeMap;

/**
 * Mapping between the domain values of {@code io.recourse.evidence} / {@code io.recourse.classification}
 * and the generated Avro records of {@code schemas/} (DESIGN §2, §4). Enums travel as their wire
 * names; instants as {@code timestamp-millis} (so sub-millisecond precision is dropped);
 * {@code null} stays {@code null}. Every {@code fromAvro} is the inverse of its {@code toAvro} up
 * to millisecond precision.
 *
 * @throws IllegalArgumentException (from every {@code fromAvro}) on an unknown wire name
 */
public final class AvroMapping {

    private AvroMapping() {
    }

    // ------------------------------------------------------------------ session events

    /** Wraps a domain session event into the Avro {@code SessionEvent} union record. */
    public static io.recourse.avro.SessionEvent toAvro(SessionEvent event) {
        Object inner;
        if (event instanceof TurnStarted e) {
            inner = io.recourse.avro.TurnStarted.newBuilder()
                    .setContext(toAvro(e.context()))
                    .setPromptDigest(e.promptDigest())
                    .setTurnConfigDigest(e.turnConfigDigest())
                    .setOccurredAt(e.occurredAt())
                    .build();
        } else if (event instanceof TurnProgressed e) {
            inner = io.recourse.avro.TurnProgressed.newBuilder()
                    .setContext(toAvro(e.context()))
                    .setAssistantOutputSeen(e.assistantOutputSeen())
                    .setToolActivitySeen(e.toolActivitySeen())
                    .setOccurredAt(e.occurredAt())
                    .build();
        } else if (event instanceof TurnOutcome e) {
            inner = io.recourse.avro.TurnOutcome.newBuilder()
                    .setContext(toAvro(e.context()))
                    .setOutcome(e.outcome().wire())
                    .setLaunch(e.launch())
                    .setStopReason(e.stopReason())
                    .setAssistantOutputSeen(e.assistantOutputSeen())
                    .setToolActivitySeen(e.toolActivitySeen())
                    .setReplaySafe(e.replaySafe())
                    .setClassification(e.classification() == null ? null : toAvro(e.classification()))
                    .setOccurredAt(e.occurredAt())
                    .setRecordedAt(e.recordedAt())
                    .build();
        } else if (event instanceof TurnExpired e) {
            inner = io.recourse.avro.TurnExpired.newBuilder()
                    .setContext(toAvro(e.context()))
                    .setLastAppendAt(e.lastAppendAt())
                    .setOccurredAt(e.occurredAt())
                    .build();
        } else if (event instanceof SessionStopped e) {
            inner = io.recourse.avro.SessionStopped.newBuilder()
                    .setContext(toAvro(e.context()))
                    .setOccurredAt(e.occurredAt())
                    .build();
        } else {
            throw new IllegalArgumentException("unknown session event " + event);
        }
        return io.recourse.avro.SessionEvent.newBuilder().setEvent(inner).build();
    }

    /**
     * Unwraps the Avro {@code SessionEvent} union into the domain event.
     *
     * @throws IllegalArgumentException on a union branch this version does not know
     */
    public static SessionEvent fromAvro(io.recourse.avro.SessionEvent record) {
        Object inner = record.getEvent();
        if (inner instanceof io.recourse.avro.TurnStarted e) {
            return new TurnStarted(fromAvro(e.getContext()), e.getPromptDigest(), e.getTurnConfigDigest(), e.getOccurredAt());
        }
        if (inner instanceof io.recourse.avro.TurnProgressed e) {
            return new TurnProgressed(fromAvro(e.getContext()), e.getAssistantOutputSeen(), e.getToolActivitySeen(),
                    e.getOccurredAt());
        }
        if (inner instanceof io.recourse.avro.TurnOutcome e) {
            return new TurnOutcome(fromAvro(e.getContext()), WireName.parse(Outcome.class, e.getOutcome()), e.getLaunch(),
                    e.getStopReason(), e.getAssistantOutputSeen(), e.getToolActivitySeen(), e.getReplaySafe(),
                    e.getClassification() == null ? null : fromAvro(e.getClassification()), e.getOccurredAt(),
                    e.getRecordedAt());
        }
        if (inner instanceof io.recourse.avro.TurnExpired e) {
            return new TurnExpired(fromAvro(e.getContext()), e.getLastAppendAt(), e.getOccurredAt());
        }
        if (inner instanceof io.recourse.avro.SessionStopped e) {
            return new SessionStopped(fromAvro(e.getContext()), e.getOccurredAt());
        }
        throw new IllegalArgumentException("unknown SessionEvent branch " + (inner == null ? null : inner.getClass()));
    }

    /** The Avro form of a turn context. */
    public static io.recourse.avro.TurnContext toAvro(TurnContext c) {
        return io.recourse.avro.TurnContext.newBuilder()
                .setSessionId(c.sessionId())
                .setPromptGeneration(c.promptGeneration())
                .setPromptOrigin(wire(c.promptOrigin()))
                .setRetryOfGeneration(c.retryOfGeneration())
                .setCommandId(c.commandId())
                .setProfileKind(wire(c.profileKind()))
                .setAgentType(c.agentType())
                .setAgentProfileId(c.agentProfileId())
                .setExecutionProfileId(c.executionProfileId())
                .setProviderId(c.providerId())
                .setModelId(c.modelId())
                .setRunId(c.runId())
                .setWorkspaceId(c.workspaceId())
                .setTaskId(c.taskId())
                .setResumeGuarantee(c.resumeGuarantee())
                .build();
    }

    /** The domain form of an Avro turn context. */
    public static TurnContext fromAvro(io.recourse.avro.TurnContext c) {
        return new TurnContext(c.getSessionId(), c.getPromptGeneration(), parse(PromptOrigin.class, c.getPromptOrigin()),
                c.getRetryOfGeneration(), c.getCommandId(), parse(ProfileKind.class, c.getProfileKind()), c.getAgentType(),
                c.getAgentProfileId(), c.getExecutionProfileId(), c.getProviderId(), c.getModelId(), c.getRunId(),
                c.getWorkspaceId(), c.getTaskId(), c.getResumeGuarantee());
    }

    // ------------------------------------------------------------------ classification

    /** The classifier's answer as carried inside a {@code TurnOutcome}. */
    public static TurnClassification toAvro(Classification c) {
        return TurnClassification.newBuilder()
                .setCode(c.code().wire())
                .setConfidence(c.confidence().wire())
                .setRuleId(c.ruleId())
                .setCatalogueVersion(c.catalogueVersion())
                .setScope(c.scope().wire())
                .setRetryAfter(c.retryAfter())
                .setResetAt(c.resetAt())
                .setBackground(c.background())
                .build();
    }

    /** The domain form of a {@code TurnOutcome}'s classification. */
    public static Classification fromAvro(TurnClassification c) {
        return new Classification(Code.fromWire(c.getCode()), WireName.parse(Confidence.class, c.getConfidence()),
                c.getRuleId(), c.getCatalogueVersion(), WireName.parse(Scope.class, c.getScope()), c.getRetryAfter(),
                c.getResetAt(), c.getBackground());
    }

    /**
     * The record published on {@code recourse.classifications} for a failed turn (DESIGN §5).
     *
     * @throws IllegalArgumentException when the outcome carries no classification
     */
    public static io.recourse.avro.Classification publishedClassification(TurnOutcome outcome) {
        Classification c = outcome.classification();
        if (c == null) {
            throw new IllegalArgumentException("outcome " + outcome.outcome().wire() + " of " + outcome.sessionId() + "/"
                    + outcome.promptGeneration() + " carries no classification");
        }
        TurnContext ctx = outcome.context();
        return io.recourse.avro.Classification.newBuilder()
                .setSessionId(ctx.sessionId())
                .setPromptGeneration(ctx.promptGeneration())
                .setCode(c.code().wire())
                .setClass$(c.errorClass().wire())
                .setConfidence(c.confidence().wire())
                .setRuleId(c.ruleId())
                .setCatalogueVersion(c.catalogueVersion())
                .setScope(c.scope().wire())
                .setBackground(c.background())
                .setLaunch(outcome.launch())
                .setReplaySafe(outcome.replaySafe())
                .setAssistantOutputSeen(outcome.assistantOutputSeen())
                .setToolActivitySeen(outcome.toolActivitySeen())
                .setStopReason(outcome.stopReason())
                .setRetryAfter(c.retryAfter())
                .setResetAt(c.resetAt())
                .setAgentType(ctx.agentType())
                .setProviderId(ctx.providerId())
                .setModelId(ctx.modelId())
                .setProfileKind(wire(ctx.profileKind()))
                .setWorkspaceId(ctx.workspaceId())
                .setRunId(ctx.runId())
                .setCommandId(ctx.commandId())
                .setOccurredAt(outcome.occurredAt())
                .setRecordedAt(outcome.recordedAt())
                .build();
    }

    /** The domain classification inside a published {@code Classification} record. */
    public static Classification fromAvro(io.recourse.avro.Classification c) {
        return new Classification(Code.fromWire(c.getCode()), WireName.parse(Confidence.class, c.getConfidence()),
                c.getRuleId(), c.getCatalogueVersion(), WireName.parse(Scope.class, c.getScope()), c.getRetryAfter(),
                c.getResetAt(), c.getBackground());
    }

    // ------------------------------------------------------------------ signals and evidence

    /** A kept signal as stored in the evidence signal window store. */
    public static StoredSignal toStored(Signal s) {
        return StoredSignal.newBuilder()
                .setSeq(s.seq())
                .setOccurredAt(s.occurredAt())
                .setSource(s.source().wire())
                .setPhase(wire(s.phase()))
                .setKind(s.kind().wire())
                .setFields(new TreeMap<>(s.fields()))
                .build();
    }

    /** The domain signal of a stored one. */
    public static Signal fromStored(StoredSignal s) {
        return new Signal(s.getSeq(), s.getOccurredAt(), WireName.parse(FrameSource.class, s.getSource()),
                parse(Phase.class, s.getPhase()), WireName.parse(SignalKind.class, s.getKind()), new TreeMap<>(s.getFields()));
    }

    /**
     * The record published on {@code recourse.unclassified-evidence} for evidence no rule matched.
     *
     * @param fallback the fallback classification the classifier gave it (its code and rule id)
     */
    public static UnclassifiedEvidence unclassifiedEvidence(Evidence evidence, Classification fallback) {
        List<EvidenceSignal> signals = evidence.signals().stream()
                .map(s -> EvidenceSignal.newBuilder()
                        .setSeq(s.seq())
                        .setOccurredAt(s.occurredAt())
                        .setSource(s.source().wire())
                        .setPhase(wire(s.phase()))
                        .setKind(s.kind().wire())
                        .setFields(new TreeMap<>(s.fields()))
                        .build())
                .toList();
        return UnclassifiedEvidence.newBuilder()
                .setSessionId(evidence.sessionId())
                .setPromptGeneration(evidence.promptGeneration())
                .setCode(fallback.code().wire())
                .setRuleId(fallback.ruleId())
                .setCatalogueVersion(fallback.catalogueVersion())
                .setAgentType(evidence.agentType())
                .setProviderId(evidence.providerId())
                .setModelId(evidence.modelId())
                .setLaunch(evidence.launch())
                .setStopReason(evidence.stopReason())
                .setAssistantOutputSeen(evidence.assistantOutputSeen())
                .setToolActivitySeen(evidence.toolActivitySeen())
                .setDroppedSignals(evidence.droppedSignals())
                .setTerminalAt(evidence.terminalAt())
                .setSignals(signals)
                .build();
    }

    /** The evidence carried by an unclassified-evidence record (for catalogue tooling and tests). */
    public static Evidence fromAvro(UnclassifiedEvidence u) {
        List<Signal> signals = u.getSignals().stream()
                .map(s -> new Signal(s.getSeq(), s.getOccurredAt(), WireName.parse(FrameSource.class, s.getSource()),
                        parse(Phase.class, s.getPhase()), WireName.parse(SignalKind.class, s.getKind()),
                        new TreeMap<>(s.getFields())))
                .toList();
        return new Evidence(u.getSessionId(), u.getPromptGeneration(), u.getAgentType(), u.getProviderId(), u.getModelId(),
                u.getLaunch(), signals, u.getTerminalAt(), u.getStopReason(), u.getAssistantOutputSeen(),
                u.getToolActivitySeen(), u.getDroppedSignals());
    }

    /**
     * The turn context carried by any branch of a SessionEvent (DESIGN §4).
     *
     * @throws IllegalArgumentException for an unknown branch
     */
    public static io.recourse.avro.TurnContext contextOf(io.recourse.avro.SessionEvent e) {
        Object inner = e.getEvent();
        if (inner instanceof io.recourse.avro.TurnStarted x) {
            return x.getContext();
        }
        if (inner instanceof io.recourse.avro.TurnProgressed x) {
            return x.getContext();
        }
        if (inner instanceof io.recourse.avro.TurnOutcome x) {
            return x.getContext();
        }
        if (inner instanceof io.recourse.avro.TurnExpired x) {
            return x.getContext();
        }
        if (inner instanceof io.recourse.avro.SessionStopped x) {
            return x.getContext();
        }
        throw new IllegalArgumentException("unknown SessionEvent branch " + (inner == null ? null : inner.getClass()));
    }
}
