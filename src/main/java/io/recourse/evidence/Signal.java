package io.recourse.evidence;

import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Phase;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The bounded, sanitized part of one frame that evidence keeps (DESIGN §4). Values in
 * {@code fields} are already sanitized (DESIGN §9) and at most 4 KiB each; the names per kind are
 * listed on {@link SignalKind}.
 *
 * @param seq        the frame's {@code seq}
 * @param occurredAt the frame's {@code occurred_at} (UTC); relative hints resolve against it
 * @param phase      the frame's phase, or {@code null}
 * @param fields     field name → sanitized text, in name order; never {@code null}
 */
public record Signal(
        long seq,
        Instant occurredAt,
        FrameSource source,
        Phase phase,
        SignalKind kind,
        SortedMap<String, String> fields) {

    public Signal {
        Objects.requireNonNull(occurredAt, "occurredAt");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(kind, "kind");
        fields = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(fields == null ? Map.of() : fields));
    }

    /** The field's value, or {@code null} when the signal does not carry it. */
    public String field(String name) {
        return fields.get(name);
    }

    /** Approximate retained size in bytes (UTF-16 chars × 2 are not counted; UTF-8 length of values). */
    public int size() {
        int n = 0;
        for (Map.Entry<String, String> e : fields.entrySet()) {
            n += e.getKey().length() + e.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        }
        return n;
    }
}
