package io.recourse.kit;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;

/**
 * One timer of an owner as data (DESIGN §8): what it is for, when it is due (UTC, millisecond
 * precision) and which id it belongs to. Both owners' timer records implement it, so their store
 * key ({@link #key()}, {@link TimeIndexKey}'s layout) and their firing order ({@link #order()})
 * are one code.
 */
public interface TimeIndexEntry {

    /** What the timer is for; its {@link TimerKind#code()} is the key's kind byte. */
    TimerKind kind();

    /** When the timer is due (UTC, millisecond precision). */
    Instant due();

    /** The id the timer belongs to (session id, run id, health key …). */
    String id();

    /** The store key: {@code instant(8, big-endian epoch ms) · kind(1) · id (UTF-8)}. */
    default byte[] key() {
        return TimeIndexKey.encode(due(), kind().code(), id());
    }

    /**
     * Due instant, then kind byte, then the id's UTF-8 bytes (unsigned): the order a time-index scan
     * fires entries in, equal to {@link TimeIndexKey#ORDER} on their {@link #key()}s.
     */
    static <E extends TimeIndexEntry> Comparator<E> order() {
        return Comparator.<E, Instant>comparing(TimeIndexEntry::due)
                .thenComparing(e -> e.kind().code())
                .thenComparing(e -> e.id().getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned);
    }
}
