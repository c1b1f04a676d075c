package io.recourse.ingress.streams;

import io.recourse.ingress.Frame;

/**
 * What the ingress processor makes of one record of the frames topic: an admitted {@link Frame},
 * or a rejected record carrying its original key and value bytes for the DLQ (DESIGN §3).
 * In-memory only (never serialized): it lives between two processors of one sub-topology.
 */
public sealed interface Admission {

    /** A valid frame, forwarded to the evidence stage. */
    record Admitted(Frame frame) implements Admission {
    }

    /** A rejected record; the DLQ headers travel on the record's headers. */
    record Rejected(byte[] originalKey, byte[] originalValue) implements Admission {
    }
}
