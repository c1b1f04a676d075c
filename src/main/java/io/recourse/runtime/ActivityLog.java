package io.recourse.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.kit.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One INFO line per interval (default a minute) with what the instance did since the previous one
 * (DESIGN §10), read from its meter registry: frames consumed per second, failed turns classified and
 * turns left unclassified, failures by class, dead letters by reason, commands issued (interactive retry
 * commands and route commands). Kafka Streams' topic-level counters
 * ({@code kafka.stream.topic.records.consumed.total} / {@code .produced.total}) give the record counts;
 * every label printed is a closed vocabulary.
 */
public final class ActivityLog implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ActivityLog.class);
    static final String CONSUMED = "kafka.stream.topic.records.consumed.total";
    static final String PRODUCED = "kafka.stream.topic.records.produced.total";

    private final MeterRegistry registry;
    private final Topics topics;
    private final Duration interval;
    private final Map<String, Double> previous = new HashMap<>();
    private ScheduledExecutorService executor;

    ActivityLog(MeterRegistry registry, Topics topics, Duration interval) {
        this.registry = registry;
        this.topics = topics;
        this.interval = interval;
    }

    /** Starts logging every interval. */
    ActivityLog start() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "recourse-activity-log");
            t.setDaemon(true);
            return t;
        });
        snapshotLine(); // the baseline
        executor.scheduleAtFixedRate(() -> {
            try {
                LOG.info(snapshotLine());
            } catch (RuntimeException e) {
                LOG.warn("activity line failed: {}", e.getClass().getName());
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /** The line for the counts since the previous call (the first call's counts are since start). */
    synchronized String snapshotLine() {
        double seconds = Math.max(1, interval.toSeconds());
        long frames = delta("frames", sum(CONSUMED, "topic", topics.agentFrames().name()));
        long classified = delta("classified", sum(PRODUCED, "topic", topics.classifications().name()));
        long unclassified = delta("unclassified", sum(PRODUCED, "topic", topics.unclassifiedEvidence().name()));
        long commands = delta("commands", sum(PRODUCED, "topic", topics.kanbanRetryCommands().name())
                + sum(PRODUCED, "topic", topics.officeRouteCommands().name()));
        Map<String, Long> byClass = deltas("class:", RecourseMeters.CLASSIFICATIONS, "class");
        Map<String, Long> byReason = deltas("dlq:", DeadLetterCounter.DLQ_RECORDS, "reason");
        return String.format(java.util.Locale.ROOT,
                "last %ds: %.1f frames/s, %d failed turns classified, %d unclassified, failures by class %s,"
                        + " dead letters by reason %s, %d commands issued",
                (long) seconds, frames / seconds, classified, unclassified, byClass, byReason, commands);
    }

    private long delta(String key, double now) {
        Double before = previous.put(key, now);
        return Math.round(now - (before == null ? 0 : before));
    }

    private Map<String, Long> deltas(String prefix, String name, String tag) {
        Map<String, Double> totals = new TreeMap<>();
        for (Meter m : registry.find(name).meters()) {
            String v = m.getId().getTag(tag);
            totals.merge(v == null ? "none" : v, count(m), Double::sum);
        }
        Map<String, Long> out = new TreeMap<>();
        totals.forEach((k, v) -> {
            long d = delta(prefix + k, v);
            if (d != 0) {
                out.put(k, d);
            }
        });
        return out;
    }

    private double sum(String name, String tag, String value) {
        double total = 0;
        for (Meter m : registry.find(name).tag(tag, value).meters()) {
            total += count(m);
        }
        return total;
    }

    private static double count(Meter m) {
        if (m instanceof Counter c) {
            return c.count();
        }
        if (m instanceof FunctionCounter c) {
            return c.count();
        }
        double total = 0;
        for (var measurement : m.measure()) {
            total += Double.isFinite(measurement.getValue()) ? measurement.getValue() : 0;
        }
        return total;
    }

    @Override
    public void close() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }
}
