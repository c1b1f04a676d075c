package io.recourse.streams;

import io.recourse.WireName;
import java.util.Locale;

/**
 * The value conversions shared by the Avro mappings of this package ({@link AvroMapping},
 * {@link TurnStateMapping}): enums travel as their wire names, or — for enums without one (the
 * turn state's closed marker and effect kinds) — as their lower-case constant names; {@code null}
 * stays {@code null} where the schema field is nullable.
 */
final class AvroConversions {

    private AvroConversions() {
    }

    /** The wire name of {@code value}, or {@code null} for {@code null}. */
    static String wire(WireName value) {
        return value == null ? null : value.wire();
    }

    /**
     * The constant of {@code type} with wire name {@code wire}, or {@code null} for {@code null}.
     *
     * @throws IllegalArgumentException on an unknown wire name
     */
    static <E extends Enum<E> & WireName> E parse(Class<E> type, String wire) {
        return wire == null ? null : WireName.parse(type, wire);
    }

    /** The constant's name in lower case ({@code ROOT} locale). */
    static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    /**
     * The constant of {@code type} whose lower-case name is {@code wire}; the inverse of {@link #lower}.
     *
     * @throws IllegalArgumentException on an unknown name
     */
    static <E extends Enum<E>> E upper(Class<E> type, String wire) {
        for (E e : type.getEnumConstants()) {
            if (e.name().toLowerCase(Locale.ROOT).equals(wire)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown " + type.getSimpleName() + " '" + wire + "'");
    }
}
