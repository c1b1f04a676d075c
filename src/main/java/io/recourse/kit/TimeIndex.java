package io.recourse.kit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * An owner's time index (DESIGN §8): a key-value store keyed by {@link TimeIndexKey} bytes, and the
 * one capped punctuator loop that fires what is due. Each owner gives its {@link Loop} (the cap on
 * entries fired per punctuation, which bounds a transaction; whether it scans again after firing;
 * whether an entry cancelled by an earlier one of the same scan is skipped) and which due entries
 * it holds back for now.
 *
 * @param <V> the stored value (the owner's partition key, or a presence marker)
 */
public final class TimeIndex<V> {

    /**
     * How an owner's punctuator fires its due entries.
     *
     * @param maxFiredPerPunctuation entries fired per punctuation at most; the rest fire at the next one
     * @param rescan                 scan again after a scan that fired something (entries armed
     *                               already due fire in the same punctuation), up to the cap
     * @param skipCancelled          an entry deleted by an earlier entry's firing in the same scan is not fired
     */
    public record Loop(int maxFiredPerPunctuation, boolean rescan, boolean skipCancelled) {

        public Loop {
            if (maxFiredPerPunctuation < 1) {
                throw new IllegalArgumentException("maxFiredPerPunctuation must be positive: " + maxFiredPerPunctuation);
            }
        }
    }

    /** What firing one due entry does; the entry is deleted from the index before. */
    @FunctionalInterface
    public interface Fire<V> {
        /** @param key the entry's {@link TimeIndexKey} bytes */
        void fire(byte[] key, V value);
    }

    private final KeyValueStore<Bytes, V> store;

    public TimeIndex(KeyValueStore<Bytes, V> store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** Adds the entry of {@code key} ({@link TimeIndexKey} bytes). */
    public void arm(byte[] key, V value) {
        store.put(Bytes.wrap(key), value);
    }

    /** Removes the entry of {@code key}, if any. */
    public void cancel(byte[] key) {
        store.delete(Bytes.wrap(key));
    }

    /**
     * Fires the entries due at or before {@code now} in key order (instant, kind byte, id), as
     * {@code loop} says; an entry {@code held} tests true for stays in the index and does not count.
     *
     * @return how many entries fired
     */
    public int fireDue(Instant now, Loop loop, Predicate<byte[]> held, Fire<V> fire) {
        int cap = loop.maxFiredPerPunctuation();
        int fired = 0;
        boolean more = true;
        while (more && fired < cap) {
            List<KeyValue<Bytes, V>> due = new ArrayList<>();
            try (KeyValueIterator<Bytes, V> it = store.range(Bytes.wrap(TimeIndexKey.lowerBound()),
                    Bytes.wrap(TimeIndexKey.upperBound(now)))) {
                while (it.hasNext() && due.size() < cap - fired) {
                    KeyValue<Bytes, V> kv = it.next();
                    if (!held.test(kv.key.get())) {
                        due.add(kv);
                    }
                }
            }
            more = false;
            for (KeyValue<Bytes, V> kv : due) {
                if (loop.skipCancelled() && store.get(kv.key) == null) {
                    continue; // cancelled by an earlier entry of this scan
                }
                store.delete(kv.key);
                fire.fire(kv.key.get(), kv.value);
                fired++;
                more = loop.rescan();
            }
        }
        return fired;
    }
}
