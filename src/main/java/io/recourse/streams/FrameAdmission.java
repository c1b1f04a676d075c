package io.recourse.streams;

import io.recourse.ingress.Frame;

/**
 * The ingress validation step (DESIGN §3) as the topology calls it: parse and check one record of
 * {@code recourse.agent-frames}, or reject it with a DLQ reason. Implemented by an adapter over
 * the ingress stage's parser; the size bound is checked by the topology before this is called.
 */
@FunctionalInterface
public interface FrameAdmission {

    /**
     * @param key   the record key as text ({@code <session_id>/<prompt_generation>}), or {@code null}
     * @param value the record value, never {@code null}
     * @return the parsed frame
     * @throws FrameRejection with the DLQ reason when the record is not a valid frame
     */
    Frame admit(String key, byte[] value) throws FrameRejection;

    /** A frame the ingress stage refused, with the snake_case DLQ reason code (header {@code recourse.error.code}). */
    final class FrameRejection extends Exception {
        private final String code;

        public FrameRejection(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        /** The DLQ reason code, e.g. {@code invalid_json}. */
        public String code() {
            return code;
        }
    }
}
