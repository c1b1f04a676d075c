package io.recourse.kit;

import io.recourse.taxonomy.WireName;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The value conversions shared by the Avro mappings of this package ({@link AvroMapping},
 * {@link TurnStateMapping}): enums travel as their wire names, or — for enums without one (the
 * turn state's closed marker and effect kinds) — as their lower-case constant names; {@code null}
 * stays {@code null} where the schema field is nullable. Names are looked up in per-enum tables
 * computed once (the turn store's mapping converted names on every frame).
 */
public final class AvroConversions {

    /** Lower-case constant name → constant, per enum type. */
    private static final ClassValue<Map<String, Object>> BY_LOWER_NAME = new ClassValue<>() {
        @Override
        protected Map<String, Object> computeValue(Class<?> type) {
            Map<String, Object> m = new HashMap<>();
            for (Object c : type.getEnumConstants()) {
                m.putIfAbsent(((Enum<?>) c).name().toLowerCase(Locale.ROOT), c); // the first wins, as the linear search did
            }
            return m;
        }
    };

    private AvroConversions() {
    }

    /** The wire name of {@code value}, or {@code null} for {@code null}. */
    public static String wire(WireName value) {
        return value == null ? null : value.wire();
    }

    /**
     * The constant of {@code type} with wire name {@code wire}, or {@code null} for {@code null}.
     *
     * @throws IllegalArgumentException on an unknown wire name
     */
    public static <E extends Enum<E> & WireName> E parse(Class<E> type, String wire) {
        return wire == null ? null : WireName.parse(type, wire);
    }

    /** The constant's name in lower case ({@code ROOT} locale). */
    public static String lower(Enum<?> e) {
        return WireName.of(e);
    }

    /**
     * The constant of {@code type} whose lower-case name is {@code wire}; the inverse of {@link #lower}.
     *
     * @throws IllegalArgumentException on an unknown name
     */
    public static <E extends Enum<E>> E upper(Class<E> type, String wire) {
        Object e = wire == null ? null : BY_LOWER_NAME.get(type).get(wire);
        if (e == null) {
            throw new IllegalArgumentException("unknown " + type.getSimpleName() + " '" + wire + "'");
        }
        return type.cast(e);
    }
}
