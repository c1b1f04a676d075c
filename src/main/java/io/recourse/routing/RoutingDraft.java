package io.recourse.routing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The mutable scratch state of one routing decision (DESIGN §7.4): a copy of the workspace's runs,
 * health and cooldowns that the decision's parts change, and the records and time-index changes
 * it collects in decision order. {@link #finish()} turns it into the immutable {@link RoutingDecision}.
 */
final class RoutingDraft {

    private final RoutingSettings settings;
    private final Function<String, RouteConfig> configs;
    final WorkspaceState before;
    final Instant now;
    final String workspaceId;
    final Map<String, Run> runs;
    final Map<ScopeKey, ProviderHealth> health;
    final Map<ScopeKey, Cooldown> cooldowns;
    final Map<String, Run> finished = new LinkedHashMap<>();
    final Set<String> changed = new LinkedHashSet<>();
    final List<RouteCommand> commands = new ArrayList<>();
    final List<RouteAttempt> attempts = new ArrayList<>();
    final Map<ScopeKey, ProviderHealth> healthOut = new LinkedHashMap<>();
    final List<ParkedRunChange> parked = new ArrayList<>();
    private final List<TimerEntry> armed = new ArrayList<>();
    private final List<TimerEntry> cancelled = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    RoutingDraft(RoutingSettings settings, Function<String, RouteConfig> configs, WorkspaceState s, Instant now) {
        this.settings = settings;
        this.configs = configs;
        this.before = s;
        this.now = now;
        this.workspaceId = s.workspaceId();
        this.runs = new LinkedHashMap<>(s.runs());
        this.health = new LinkedHashMap<>(s.health());
        this.cooldowns = new LinkedHashMap<>(s.cooldowns());
    }

    /** The validated route configuration of a profile, or {@code null}. */
    RouteConfig config(String dynamicProfileId) {
        return configs.apply(dynamicProfileId);
    }

    RoutingDraft note(String n) {
        notes.add(n);
        return this;
    }

    /** Stores the run being built and marks it changed. */
    void put(Run.Builder b) {
        runs.put(b.runId, b.build());
        changed.add(b.runId);
    }

    /** Arms {@code t}; the owner applies {@code cancel} before {@code arm}, so the pair is consistent. */
    void arm(TimerEntry t) {
        cancelled.remove(t);
        if (!armed.contains(t)) {
            armed.add(t);
        }
    }

    void cancel(TimerEntry t) {
        armed.remove(t);
        if (!cancelled.contains(t)) {
            cancelled.add(t);
        }
    }

    void setHealth(ProviderHealth h) {
        ProviderHealth prev = health.get(h.key());
        if (prev != null && prev.state() == h.state() && Objects.equals(prev.code(), h.code())
                && Objects.equals(prev.retryAt(), h.retryAt()) && prev.backoffStep() == h.backoffStep()) {
            return; // the same health again (e.g. the 20th run hitting the same reset): no new record
        }
        if (prev != null && expiryOf(prev) != null) {
            cancel(expiryOf(prev));
        }
        health.put(h.key(), h);
        healthOut.remove(h.key());
        healthOut.put(h.key(), h);
        if (expiryOf(h) != null) {
            arm(expiryOf(h));
        }
    }

    /**
     * The short phase on {@code key} ended without evidence (its cooldown expired, or was removed
     * for another reason than the owner's progress, completion or exhaustion): a scope still shown
     * {@code short_retry} becomes {@code probe_allowed}.
     */
    void endShortPhase(ScopeKey key) {
        ProviderHealth h = health.get(key);
        if (h != null && h.state() == HealthState.SHORT_RETRY) {
            setHealth(ProviderHealthLadder.probeAllowed(h, now));
        }
    }

    /** The health-expiry entry of a {@code degraded} record ({@code retry_at}), or {@code null} for any other state. */
    static TimerEntry expiryOf(ProviderHealth h) {
        return h.state() == HealthState.DEGRADED && h.retryAt() != null
                ? new TimerEntry(RoutingTimerKind.HEALTH_EXPIRY, h.retryAt(), h.key().healthKey())
                : null;
    }

    // ------------------------------------------------------------------ run timers and parking

    /**
     * Parks the run (DESIGN §7.3–7.4): a previous park's wake and the run's scheduled command and
     * dispatch timeout are cancelled; the run is {@code status} for {@code reason}, parked with
     * {@code wake_at} = {@code wake} (one {@code parked_wake} entry, none when {@code null}) and
     * {@code retry_at} = {@code retryAt}; a ParkedRun with the per-candidate {@code reasons} is written.
     */
    void park(Run.Builder b, RunStatus status, RunReason reason, Instant wake, Instant retryAt,
            Map<String, String> reasons) {
        if (b.parked && b.wakeAt != null) {
            cancel(new TimerEntry(RoutingTimerKind.PARKED_WAKE, b.wakeAt, b.runId));
        }
        cancelScheduled(b);
        b.status = status;
        b.reason = reason.wire();
        b.wakeAt = wake;
        b.retryAt = retryAt;
        b.parked = true;
        b.waitingOn = null;
        b.pendingCommandId = null;
        b.updatedAt = now;
        if (wake != null) {
            arm(new TimerEntry(RoutingTimerKind.PARKED_WAKE, wake, b.runId));
        }
        parked.add(new ParkedRunChange(b.runId, new ParkedRun(b.runId, b.workspaceId, status, wake, b.reason, reasons, now)));
        put(b);
    }

    /** Releases a park: its wake is cancelled and the ParkedRun gets a tombstone. */
    void unpark(Run.Builder b) {
        if (b.parked) {
            if (b.wakeAt != null) {
                cancel(new TimerEntry(RoutingTimerKind.PARKED_WAKE, b.wakeAt, b.runId));
            }
            b.parked = false;
            b.wakeAt = null;
            b.retryAt = null; // a reset wait's command goes with its park
            parked.add(new ParkedRunChange(b.runId, null));
        }
    }

    /** Cancels the run's scheduled command (a reset wait's is its park's wake) and its dispatch timeout. */
    void cancelScheduled(Run.Builder b) {
        if (b.retryAt != null && !b.parked) {
            cancel(new TimerEntry(RoutingTimerKind.ROUTE_COMMAND_DUE, b.retryAt, b.runId));
        }
        if (b.pendingCommandId != null) {
            cancel(dispatchTimeout(b));
        }
    }

    /** Cancels every timer of the run except its expiry. */
    void cancelRunTimers(Run.Builder b) {
        cancelScheduled(b);
        if (b.wakeAt != null && b.parked) {
            cancel(new TimerEntry(RoutingTimerKind.PARKED_WAKE, b.wakeAt, b.runId));
        }
    }

    /** The dispatch-timeout entry of the run's pending command. */
    TimerEntry dispatchTimeout(Run.Builder b) {
        return new TimerEntry(RoutingTimerKind.DISPATCH_TIMEOUT, b.pendingIssuedAt.plus(settings.dispatchTimeout()), b.runId);
    }

    // ------------------------------------------------------------------ shared lookups

    static List<ScopeKey> scopesOf(String workspaceId, Candidate c) {
        return List.of(ScopeKey.provider(workspaceId, c.providerId()), ScopeKey.model(workspaceId, c.providerId(), c.modelId()));
    }

    static Candidate candidate(RouteConfig cfg, int i) {
        return cfg == null || i < 0 || i >= cfg.candidates().size() ? null : cfg.candidates().get(i);
    }

    static Integer expectedGeneration(Run.Builder b) {
        return b.sessionId == null ? null : b.generations.get(b.sessionId);
    }

    // ------------------------------------------------------------------ the decision

    RoutingDecision finish() {
        // every changed run's last event is now: its state expires a retention after it (DESIGN §7)
        for (String id : changed) {
            Run r = runs.get(id);
            Run old = before.runs().get(id);
            if (old != null && old.updatedAt() != null && !old.updatedAt().equals(now) && !old.equals(r)) {
                cancel(expiryOf(old));
            }
            if (r != null && !r.equals(old)) {
                if (!now.equals(r.updatedAt())) {
                    Run.Builder b = r.toBuilder();
                    b.updatedAt = now;
                    runs.put(id, b.build());
                }
                arm(new TimerEntry(RoutingTimerKind.RUN_EXPIRY, now.plus(settings.runRetention()), id));
            }
        }
        List<RunState> states = new ArrayList<>();
        for (String id : changed) {
            Run r = runs.containsKey(id) ? runs.get(id) : finished.get(id);
            if (r == null) {
                continue;
            }
            RunState published = publish(r);
            Run old = before.runs().get(id);
            if (old == null || !sameVisible(publish(old), published)) {
                states.add(published);
            }
        }
        WorkspaceState after = new WorkspaceState(workspaceId, runs, health, cooldowns);
        List<String> changedIds = changed.stream()
                .filter(id -> !Objects.equals(before.runs().get(id), runs.get(id))).toList();
        return new RoutingDecision(after, commands, states, attempts, new ArrayList<>(healthOut.values()), parked, armed,
                cancelled, notes, changedIds);
    }

    private RunState publish(Run r) {
        Candidate c = candidate(configs.apply(r.dynamicProfileId()), r.candidateIndex());
        return r.toRunState(c == null ? null : c.ref());
    }

    private TimerEntry expiryOf(Run r) {
        return new TimerEntry(RoutingTimerKind.RUN_EXPIRY, r.updatedAt().plus(settings.runRetention()), r.runId());
    }

    private static boolean sameVisible(RunState a, RunState b) {
        return Objects.equals(a.status(), b.status()) && Objects.equals(a.candidate(), b.candidate())
                && a.attempt() == b.attempt() && Objects.equals(a.retryAt(), b.retryAt())
                && a.retryOrdinal() == b.retryOrdinal() && a.maxRetries() == b.maxRetries()
                && Objects.equals(a.wakeAt(), b.wakeAt()) && Objects.equals(a.code(), b.code())
                && Objects.equals(a.reason(), b.reason());
    }
}
