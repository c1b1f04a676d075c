package io.recourse.routing;

/**
 * One problem of a route configuration document, addressed by field path in the document's own
 * (snake_case) names, e.g. {@code candidates[2].policies.hard.wait_for_reset.max_wait_seconds}
 * (DESIGN §7.1); {@code $} for the document as a whole.
 */
public record RouteConfigError(String field, String message) {

    @Override
    public String toString() {
        return field + ": " + message;
    }
}
