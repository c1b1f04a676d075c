package io.recourse.kit;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Keeps one metric tag's cardinality bounded (DESIGN §10): every distinct tag value is a time
 * series. For values taken from input (agent type, provider) {@code extraCap} is 0, so only the
 * allow-list ({@code known}) ever becomes a label value; for Recourse's own words (rule ids of a
 * replaceable catalogue, owner results) a few more are admitted. {@link #of} returns
 * <ul>
 *   <li>{@value #NONE} for {@code null} or blank;</li>
 *   <li>the value in lower case when it is one of the known values;</li>
 *   <li>otherwise the lower-cased value when it looks like a name ({@code [a-z0-9][a-z0-9._:/-]*},
 *       at most {@value #MAX_LENGTH} characters) and fewer than {@code extraCap} other unknown
 *       values were admitted before (first come, per process; an admitted value stays admitted);</li>
 *   <li>{@value #OTHER} for everything else.</li>
 * </ul>
 * So the tag has at most {@code known + extraCap + 2} values. Thread-safe.
 */
public final class BoundedTag {

    public static final String NONE = "none";
    static final String OTHER = "other";
    static final int MAX_LENGTH = 64;
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._:/-]{0," + (MAX_LENGTH - 1) + "}");

    private final Set<String> known;
    private final int extraCap;
    private final Set<String> admitted = ConcurrentHashMap.newKeySet();

    /**
     * @param known    values always kept (compared in lower case)
     * @param extraCap how many other well-formed values are kept, ≥ 0
     */
    public BoundedTag(Set<String> known, int extraCap) {
        if (extraCap < 0) {
            throw new IllegalArgumentException("extraCap must be ≥ 0: " + extraCap);
        }
        this.known = Set.copyOf(known);
        this.extraCap = extraCap;
    }

    /** The tag value for {@code raw} (see the class doc). */
    public String of(String raw) {
        if (raw == null || raw.isBlank()) {
            return NONE;
        }
        String v = raw.strip().toLowerCase(Locale.ROOT);
        if (known.contains(v) || admitted.contains(v)) {
            return v;
        }
        if (!NAME.matcher(v).matches()) {
            return OTHER;
        }
        synchronized (admitted) {
            if (admitted.contains(v)) {
                return v;
            }
            if (admitted.size() < extraCap) {
                admitted.add(v);
                return v;
            }
        }
        return OTHER;
    }
}
