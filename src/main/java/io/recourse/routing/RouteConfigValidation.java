package io.recourse.routing;

import java.util.List;

/**
 * The result of reading a route configuration document: the normalized, validated document, or
 * the field-addressed errors that reject it (never both).
 */
public record RouteConfigValidation(RouteConfig config, List<RouteConfigError> errors) {

    public RouteConfigValidation {
        errors = List.copyOf(errors);
        if ((config == null) == errors.isEmpty()) {
            throw new IllegalArgumentException("exactly one of config and errors");
        }
    }

    static RouteConfigValidation valid(RouteConfig config) {
        return new RouteConfigValidation(config, List.of());
    }

    static RouteConfigValidation invalid(List<RouteConfigError> errors) {
        return new RouteConfigValidation(null, errors);
    }

    /** True when the document is valid. */
    public boolean isValid() {
        return config != null;
    }

    /** The errors joined as one DLQ reason, e.g. {@code candidates[0].provider_id: must not be blank}. */
    public String reason() {
        return String.join("; ", errors.stream().map(RouteConfigError::toString).toList());
    }
}
