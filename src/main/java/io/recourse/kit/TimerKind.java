package io.recourse.kit;

import java.util.HashMap;
import java.util.Map;

/**
 * What a time-index entry is for (DESIGN §8): each owner's closed enum of timer kinds implements
 * it, with its own values. {@link #code()} is the kind byte of the entry's {@link TimeIndexKey};
 * at one instant, entries fire in kind-byte order.
 */
public interface TimerKind {

    /** The kind byte stored in the time-index key (1..127, unique within the enum). */
    byte code();

    /**
     * The constant of {@code type} whose {@link #code()} is {@code code}.
     *
     * @throws IllegalArgumentException for an unknown byte (the message names the byte)
     */
    static <K extends Enum<K> & TimerKind> K ofCode(Class<K> type, byte code) {
        Object k = Lookup.BY_CODE.get(type).get(code);
        if (k == null) {
            throw new IllegalArgumentException("unknown timer kind byte " + code);
        }
        return type.cast(k);
    }

    /** Kind byte → constant, per enum type, computed once. */
    final class Lookup {
        static final ClassValue<Map<Byte, Object>> BY_CODE = new ClassValue<>() {
            @Override
            protected Map<Byte, Object> computeValue(Class<?> type) {
                Map<Byte, Object> m = new HashMap<>();
                for (Object c : type.getEnumConstants()) {
                    if (m.putIfAbsent(((TimerKind) c).code(), c) != null) {
                        throw new IllegalStateException(type.getSimpleName() + " repeats kind byte " + ((TimerKind) c).code());
                    }
                }
                return m;
            }
        };

        private Lookup() {
        }
    }
}
