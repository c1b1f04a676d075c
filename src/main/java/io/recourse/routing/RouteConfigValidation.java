package io.recourse.routing;

import java.util.List;

/**
 * The result of reading a route configuration document: the normalized, validated document, or
 * the field-addressed errors that reject it (never both).
 *
 * @param unknownFields paths of members the document carried that this build does not know
 *                      ({@code candidates[0].colour}); they were ignored, not fatal (DESIGN §7.1).
 *                      Producer text: sanitize before it reaches a log or metric
 */
public record RouteConfigValidation(RouteConfig config, List<RouteConfigError> errors, List<String> unknownFields) {

    public RouteConfigValidation {
        errors = List.copyOf(errors);
        unknownFields = List.copyOf(unknownFields);
        if ((config == null) == errors.isEmpty()) {
            throw new IllegalArgumentException("exactly one of config and errors");
        }
    }

    static RouteConfigValidation valid(RouteConfig config, List<String> unknownFields) {
        return new RouteConfigValidation(config, List.of(), unknownFields);
    }

    static RouteConfigValidation invalid(List<RouteConfigError> errors) {
        return new RouteConfigValidation(null, errors, List.of());
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
