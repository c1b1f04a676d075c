package io.recourse.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * State restoration made visible (DESIGN §10): Kafka Streams' {@link StateRestoreListener}, installed
 * by {@link RecourseRunner} for every store. It logs at INFO when a store partition starts restoring
 * (store, changelog partition, records to restore), its progress at most every
 * {@value #PROGRESS_EVERY_SECONDS} s (records restored / total, rate, ETA), and its end (records,
 * duration); and it counts the partitions restoring now, which the HTTP server's readiness and its
 * {@code 503 restoring} answers read. Store and topic names are the topology's own, never input text.
 */
public final class RestoreProgress implements StateRestoreListener {

    private static final Logger LOG = LoggerFactory.getLogger(RestoreProgress.class);
    /** Seconds between two progress lines of one store partition. */
    static final long PROGRESS_EVERY_SECONDS = 5;

    private final LongSupplier nanos;
    private final Map<TopicPartition, Restoring> active = new ConcurrentHashMap<>();
    private final AtomicInteger restoring = new AtomicInteger();

    /** A listener on the JVM's monotonic clock. */
    public RestoreProgress() {
        this(System::nanoTime);
    }

    /** A listener on {@code nanos} (tests). */
    RestoreProgress(LongSupplier nanos) {
        this.nanos = nanos;
    }

    private static final class Restoring {
        final String store;
        final long total;
        final long startedNanos;
        long restored;
        long loggedNanos;

        Restoring(String store, long total, long now) {
            this.store = store;
            this.total = total;
            this.startedNanos = now;
            this.loggedNanos = now;
        }
    }

    /** How many store partitions are restoring now. */
    public int restoring() {
        return restoring.get();
    }

    @Override
    public void onRestoreStart(TopicPartition partition, String storeName, long startingOffset, long endingOffset) {
        long total = Math.max(0, endingOffset - startingOffset);
        if (active.put(partition, new Restoring(storeName, total, nanos.getAsLong())) == null) {
            restoring.incrementAndGet();
        }
        if (total > 0) { // a fresh store restores nothing: no line
            LOG.info("restoring store {} from {}: {} records", storeName, partition, total);
        }
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String storeName, long batchEndOffset, long numRestored) {
        Restoring r = active.get(partition);
        if (r == null) {
            return;
        }
        long now = nanos.getAsLong();
        synchronized (r) {
            r.restored += numRestored;
            if (now - r.loggedNanos < Duration.ofSeconds(PROGRESS_EVERY_SECONDS).toNanos()) {
                return;
            }
            r.loggedNanos = now;
            LOG.info("restoring store {} from {}: {}", storeName, partition, progress(r.restored, r.total, now - r.startedNanos));
        }
    }

    /** {@code "restored/total records (p %), n records/s, ETA s"}; public for its test. */
    static String progress(long restored, long total, long elapsedNanos) {
        double seconds = Math.max(elapsedNanos, 1) / 1e9;
        double rate = restored / seconds;
        long percent = total == 0 ? 100 : Math.min(100, restored * 100 / total);
        String eta = rate <= 0 ? "unknown" : Math.round(Math.max(0, total - restored) / rate) + " s";
        return restored + "/" + total + " records (" + percent + " %), " + Math.round(rate) + " records/s, ETA " + eta;
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String storeName, long totalRestored) {
        Restoring r = active.remove(partition);
        if (r != null) {
            restoring.decrementAndGet();
        }
        if (totalRestored == 0 && (r == null || r.total == 0)) {
            return;
        }
        long ms = r == null ? 0 : Duration.ofNanos(nanos.getAsLong() - r.startedNanos).toMillis();
        LOG.info("restored store {} from {}: {} records in {} ms", storeName, partition, totalRestored, ms);
    }

    @Override
    public void onRestoreSuspended(TopicPartition partition, String storeName, long totalRestored) {
        if (active.remove(partition) != null) {
            restoring.decrementAndGet();
        }
        LOG.info("restoration of store {} from {} suspended after {} records (the task moved)", storeName, partition,
                totalRestored);
    }
}
