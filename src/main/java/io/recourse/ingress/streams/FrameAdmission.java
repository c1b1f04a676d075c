package io.recourse.ingress.streams;

import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.ingress.FrameRejectedException;

/**
 * The ingress validation step (DESIGN §3) as the topology calls it: parse and check one record of
 * {@code recourse.agent-frames} (size bound included), or reject it with a DLQ reason. The
 * production form is {@link #parsing(FrameParser)}; tests may pass their own.
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

    /** The ingress stage's {@link FrameParser}; its {@code DlqReason} wire name becomes the rejection code. */
    static FrameAdmission parsing(FrameParser parser) {
        return (key, value) -> {
            try {
                return parser.parse(key, value);
            } catch (FrameRejectedException e) {
                throw new FrameRejection(e.reason().wire(), e.getMessage());
            }
        };
    }

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
