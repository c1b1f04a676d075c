package io.recourse.ingress;

import java.util.Objects;

/**
 * A frame of {@code recourse.agent-frames} that must go to {@code recourse.dlq} (DESIGN §3).
 * {@link #reason()} is the {@code recourse.error.code} header, {@link #getMessage()} the
 * {@code recourse.error.message} header; the message names the offending field and never
 * contains the field's value (values may hold secrets).
 */
public final class FrameRejectedException extends Exception {

    private static final long serialVersionUID = 1L;

    private final DlqReason reason;

    public FrameRejectedException(DlqReason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /**
     * Without a stack trace when {@code stackTrace} is false: the parser's rejections are
     * expected input errors (about 1 % of the records), the reason and message say all.
     */
    FrameRejectedException(DlqReason reason, String message, boolean stackTrace) {
        super(message, null, false, stackTrace);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** The DLQ reason, whose wire name is the header {@code recourse.error.code}. */
    public DlqReason reason() {
        return reason;
    }
}
