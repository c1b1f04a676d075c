package io.recourse.kit;

import java.time.Duration;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Kafka consumer polled on its own daemon thread until {@link #close()}: every poll's records
 * (possibly none) go to the handler, on that thread. A {@link RuntimeException} from the poll or the
 * handler stops the thread; it is logged at ERROR, naming the thread, and kept for {@link #failure()}.
 * The consumer stays the caller's: assign or subscribe it before {@link #start}, close it after
 * {@link #close()}. Used by the demo's scripted dispatcher and by the benchmark's dispatcher and
 * observer, which read Recourse's outputs while the caller drives the scenario.
 */
public final class PollThread implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PollThread.class);
    /** How long {@link #close()} waits for the thread to finish its current poll and handler. */
    static final Duration JOIN_TIMEOUT = Duration.ofSeconds(5);

    private final Thread thread;
    private volatile boolean stop;
    private volatile RuntimeException failure;

    private <K, V> PollThread(String name, org.apache.kafka.clients.consumer.Consumer<K, V> consumer, Duration pollTimeout,
                              Consumer<ConsumerRecords<K, V>> handler) {
        this.thread = new Thread(() -> loop(consumer, pollTimeout, handler), name);
        this.thread.setDaemon(true);
    }

    /**
     * Starts polling {@code consumer} every {@code pollTimeout} (at most) on a daemon thread named
     * {@code name}, handing each poll's records to {@code handler}.
     *
     * @return the running thread's handle; {@link #close()} stops it
     */
    public static <K, V> PollThread start(String name, org.apache.kafka.clients.consumer.Consumer<K, V> consumer,
                                          Duration pollTimeout, Consumer<ConsumerRecords<K, V>> handler) {
        PollThread t = new PollThread(name, consumer, pollTimeout, handler);
        t.thread.start();
        return t;
    }

    private <K, V> void loop(org.apache.kafka.clients.consumer.Consumer<K, V> consumer, Duration pollTimeout,
                             Consumer<ConsumerRecords<K, V>> handler) {
        try {
            while (!stop) {
                handler.accept(consumer.poll(pollTimeout));
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.error("{} failed", thread.getName(), e);
            failure = e;
        }
    }

    /** The error that stopped the thread, or {@code null} while it runs or after it stopped cleanly. */
    public RuntimeException failure() {
        return failure;
    }

    /** Whether the thread is still polling. */
    public boolean running() {
        return thread.isAlive();
    }

    /**
     * Stops the thread after its current poll and handler, waiting up to {@link #JOIN_TIMEOUT}
     * (5 s); the consumer is left open. Idempotent.
     */
    @Override
    public void close() {
        stop = true;
        try {
            thread.join(JOIN_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
