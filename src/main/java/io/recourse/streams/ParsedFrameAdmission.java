package io.recourse.streams;

import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.ingress.FrameRejectedException;
import java.util.Objects;

/**
 * The ingress admission of the topology (DESIGN §3): the ingress stage's {@link FrameParser}; a
 * {@link FrameRejectedException} becomes a {@link FrameAdmission.FrameRejection} whose code is the
 * {@link io.recourse.ingress.DlqReason}'s wire name (the DLQ header {@code recourse.error.code}).
 */
public final class ParsedFrameAdmission implements FrameAdmission {

    private final FrameParser parser;

    /** Admission through {@code parser}. */
    public ParsedFrameAdmission(FrameParser parser) {
        this.parser = Objects.requireNonNull(parser, "parser");
    }

    @Override
    public Frame admit(String key, byte[] value) throws FrameRejection {
        try {
            return parser.parse(key, value);
        } catch (FrameRejectedException e) {
            throw new FrameRejection(e.reason().wire(), e.getMessage());
        }
    }
}
