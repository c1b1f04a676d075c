package io.recourse.classification;

/**
 * A rule file that fails load-time validation (DESIGN §5.2). The message names the offending rule
 * id (or its position when it has none) and the reason, e.g.
 * {@code rule 'anthropic.overloaded.529.v1': priority 900 ties with rule 'x.v1'}.
 */
public final class CatalogueException extends IllegalArgumentException {

    private final String ruleId;

    public CatalogueException(String ruleId, String message) {
        super(ruleId == null ? message : "rule '" + ruleId + "': " + message);
        this.ruleId = ruleId;
    }

    public CatalogueException(String ruleId, String message, Throwable cause) {
        this(ruleId, message);
        initCause(cause);
    }

    /** The offending rule's id, or {@code null} for a file-level error. */
    public String ruleId() {
        return ruleId;
    }
}
