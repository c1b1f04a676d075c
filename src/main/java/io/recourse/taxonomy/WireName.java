package io.recourse.taxonomy;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A closed vocabulary whose values travel on the wire under the design's snake_case names
 * (DESIGN §§3–7). Every enum in Recourse implements it, so JSON, Avro and logs all spell a value
 * the same way.
 */
public interface WireName {

    /** The value's name on the wire, e.g. {@code provider_overloaded}. */
    String wire();

    /**
     * Finds the constant of {@code type} whose {@link #wire()} equals {@code wire}.
     *
     * @throws IllegalArgumentException naming the type and the unknown value
     */
    static <E extends Enum<E> & WireName> E parse(Class<E> type, String wire) {
        Object e = Lookup.BY_WIRE.get(type).get(wire);
        if (e == null) {
            throw new IllegalArgumentException("unknown " + type.getSimpleName() + " '" + wire + "'");
        }
        return type.cast(e);
    }

    /** Default wire name of an enum constant: its name in lower case. */
    static String of(Enum<?> e) {
        return Lookup.LOWER_NAMES.get(e.getDeclaringClass())[e.ordinal()];
    }

    /**
     * Per-enum tables, computed once (parsing frames and mapping Avro state looked wire
     * names up on every record, lower-casing every constant's name each time).
     */
    final class Lookup {
        /** Wire name → constant, per enum type implementing {@link WireName}. */
        static final ClassValue<Map<String, Object>> BY_WIRE = new ClassValue<>() {
            @Override
            protected Map<String, Object> computeValue(Class<?> type) {
                Map<String, Object> m = new HashMap<>();
                for (Object c : type.getEnumConstants()) {
                    m.putIfAbsent(((WireName) c).wire(), c); // the first constant wins, as the linear search did
                }
                return m;
            }
        };
        /** Constant names in lower case, by ordinal. */
        static final ClassValue<String[]> LOWER_NAMES = new ClassValue<>() {
            @Override
            protected String[] computeValue(Class<?> type) {
                Object[] constants = type.getEnumConstants();
                String[] out = new String[constants.length];
                for (int i = 0; i < constants.length; i++) {
                    out[i] = ((Enum<?>) constants[i]).name().toLowerCase(Locale.ROOT);
                }
                return out;
            }
        };

        private Lookup() {
        }
    }
}
