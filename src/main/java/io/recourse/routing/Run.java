package io.recourse.routing;

import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.ErrorClass;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The routing owner's full state of one run (DESIGN §7): more than the published {@link RunState}
 * (which {@link #toRunState} derives). Immutable; change it through {@link #toBuilder()}.
 *
 * @param candidateIndex          index of the current candidate in the profile, -1 before routing
 * @param attempt                 route attempts (dispatches) so far; the fence of {@link RunControl}
 * @param cycle                   route cycles started (launch and every wake start one)
 * @param excluded                candidates passed over or given up in this cycle
 * @param resetWaitsUsed          classes whose one reset wait this cycle is spent
 * @param retryOrdinal            same-route retries scheduled on the current candidate
 * @param maxRetries              budget of the class being retried
 * @param retryAt                 due instant of the scheduled same-route command, or {@code null}
 * @param wakeAt                  parked (or reset-waiting) run's wake, or {@code null}
 * @param parked                  a ParkedRun record exists for the run: a park (no eligible candidate, the attempt
 *                                cap) or a same-route reset wait ({@link #resetWait()}); its wake is a
 *                                {@code parked_wake} entry at {@code wakeAt}
 * @param pendingCommandId        the issued command awaiting its ack or TurnStarted, or {@code null}
 * @param pendingIssuedAt         when {@code pendingCommandId} was issued
 * @param lastDispatchedCandidate candidate of the last dispatch, -1 before the first
 * @param lastFailureReplaySafe   the last failed turn of the run was replay-safe
 * @param generations             highest prompt generation seen per session of the run
 * @param waitingOn               the cooldown scope the run waits on, or {@code null}
 */
public record Run(String runId, String workspaceId, String dynamicProfileId, String taskId, String requestId,
        RunStatus status, int candidateIndex, int attempt, int cycle, Set<Integer> excluded,
        Set<ErrorClass> resetWaitsUsed, int retryOrdinal, int maxRetries, Instant retryAt, Instant wakeAt,
        boolean parked, String pendingCommandId, Instant pendingIssuedAt, int lastDispatchedCandidate,
        boolean lastFailureReplaySafe, String sessionId, Map<String, Integer> generations, ScopeKey waitingOn,
        Code code, String reason, Instant updatedAt) {

    public Run {
        excluded = java.util.Collections.unmodifiableSet(new TreeSet<>(excluded));
        resetWaitsUsed = resetWaitsUsed.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(EnumSet.copyOf(resetWaitsUsed));
        generations = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(generations));
    }

    /** A run just requested, before routing. */
    public static Run requested(RunRequest r, Instant now) {
        return new Run(r.runId(), r.workspaceId(), r.dynamicProfileId(), r.taskId(), r.requestId(), RunStatus.ROUTING,
                -1, 0, 0, Set.of(), Set.of(), 0, 0, null, null, false, null, null, -1, true, null, Map.of(), null, null,
                null, now);
    }

    /**
     * A same-route wait for a validated reset (DESIGN §7.3–7.4): parked, its same-route command due
     * at {@code retryAt} = {@code wakeAt}. Every other park has no {@code retryAt}.
     */
    public boolean resetWait() {
        return parked && retryAt != null;
    }

    /** The published RunState of this run; {@code candidate} is resolved by the caller. */
    public RunState toRunState(CandidateRef candidate) {
        return new RunState(runId, workspaceId, status, candidate, attempt, retryAt, retryOrdinal, maxRetries, wakeAt,
                code, reason, updatedAt);
    }

    /** A mutable copy. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Mutable form of {@link Run}; fields are named as the record's components. */
    public static final class Builder {
        String runId, workspaceId, dynamicProfileId, taskId, requestId;
        RunStatus status;
        int candidateIndex, attempt, cycle;
        Set<Integer> excluded;
        Set<ErrorClass> resetWaitsUsed;
        int retryOrdinal, maxRetries;
        Instant retryAt, wakeAt;
        boolean parked;
        String pendingCommandId;
        Instant pendingIssuedAt;
        int lastDispatchedCandidate;
        boolean lastFailureReplaySafe;
        String sessionId;
        Map<String, Integer> generations;
        ScopeKey waitingOn;
        Code code;
        String reason;
        Instant updatedAt;

        Builder(Run r) {
            runId = r.runId; workspaceId = r.workspaceId; dynamicProfileId = r.dynamicProfileId; taskId = r.taskId;
            requestId = r.requestId; status = r.status; candidateIndex = r.candidateIndex; attempt = r.attempt;
            cycle = r.cycle; excluded = new TreeSet<>(r.excluded);
            resetWaitsUsed = r.resetWaitsUsed.isEmpty() ? EnumSet.noneOf(ErrorClass.class) : EnumSet.copyOf(r.resetWaitsUsed);
            retryOrdinal = r.retryOrdinal; maxRetries = r.maxRetries; retryAt = r.retryAt; wakeAt = r.wakeAt;
            parked = r.parked; pendingCommandId = r.pendingCommandId; pendingIssuedAt = r.pendingIssuedAt;
            lastDispatchedCandidate = r.lastDispatchedCandidate; lastFailureReplaySafe = r.lastFailureReplaySafe;
            sessionId = r.sessionId; generations = new LinkedHashMap<>(r.generations); waitingOn = r.waitingOn;
            code = r.code; reason = r.reason; updatedAt = r.updatedAt;
        }

        /** The immutable run. */
        public Run build() {
            return new Run(runId, workspaceId, dynamicProfileId, taskId, requestId, status, candidateIndex, attempt,
                    cycle, excluded, resetWaitsUsed, retryOrdinal, maxRetries, retryAt, wakeAt, parked,
                    pendingCommandId, pendingIssuedAt, lastDispatchedCandidate, lastFailureReplaySafe, sessionId,
                    generations, waitingOn, code, reason, updatedAt);
        }
    }
}
