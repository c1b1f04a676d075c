package io.recourse.evidence.streams;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import java.util.Objects;

/**
 * The evidence stage's counters (DESIGN §4, §10) on a Micrometer registry: {@code evidence_expired}
 * (idle turns closed by the idle bound), {@code late_after_close} (frames of an already closed
 * turn), {@code evidence_duplicates} (frames whose {@code seq} the turn had already seen) and
 * {@code evidence_dropped_signals} (signal-bearing frames the bounds did not keep). All carry the
 * tag {@code stage=evidence}; with the Prometheus registry they read as {@code evidence_expired_total}
 * and so on. Thread-safe (Micrometer counters are).
 */
public final class EvidenceCounters {

    public static final String EXPIRED = "evidence_expired";
    public static final String LATE_AFTER_CLOSE = "late_after_close";
    public static final String DUPLICATES = "evidence_duplicates";
    public static final String DROPPED_SIGNALS = "evidence_dropped_signals";

    private final MeterRegistry registry;
    private final Counter expired;
    private final Counter lateAfterClose;
    private final Counter duplicates;
    private final Counter droppedSignals;

    /** Counters on {@code registry}. */
    public EvidenceCounters(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.expired = counter(EXPIRED, "idle turns closed with the marker expired");
        this.lateAfterClose = counter(LATE_AFTER_CLOSE, "frames that arrived after their turn closed");
        this.duplicates = counter(DUPLICATES, "frames with an already seen seq");
        this.droppedSignals = counter(DROPPED_SIGNALS, "signal-bearing frames not kept because of the evidence bounds");
    }

    /** Counters on Micrometer's global registry (what the runner exposes). */
    public static EvidenceCounters global() {
        return new EvidenceCounters(Metrics.globalRegistry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    void expired() {
        expired.increment();
    }

    void lateAfterClose() {
        lateAfterClose.increment();
    }

    void duplicate() {
        duplicates.increment();
    }

    void droppedSignals(int n) {
        if (n > 0) {
            droppedSignals.increment(n);
        }
    }

    /** The current count of {@code name} (one of this class's constants). */
    public double count(String name) {
        Counter c = registry.find(name).tag("stage", "evidence").counter();
        return c == null ? 0 : c.count();
    }

    private Counter counter(String name, String description) {
        return Counter.builder(name).tag("stage", "evidence").description(description).register(registry);
    }
}
