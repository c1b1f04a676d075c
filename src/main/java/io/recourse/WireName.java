package io.recourse;

import java.util.Locale;

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
        for (E e : type.getEnumConstants()) {
            if (e.wire().equals(wire)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown " + type.getSimpleName() + " '" + wire + "'");
    }

    /** Default wire name of an enum constant: its name in lower case. */
    static String of(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
