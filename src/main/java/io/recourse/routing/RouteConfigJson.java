package io.recourse.routing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Route configuration documents as JSON (DESIGN §7.1), with Jackson: {@link #read(String)} parses,
 * normalizes legacy maps ({@link LegacyPolicyNormalizer}) and validates
 * ({@link RouteConfigValidator}); {@link #write(RouteConfig)} writes the normalized form, which
 * {@link #read(String)} reads back to an equal value. Unknown fields are errors.
 */
public final class RouteConfigJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    private RouteConfigJson() {
    }

    /**
     * Reads one profile document. Never throws for bad input: malformed JSON, unknown fields, wrong
     * types, legacy conflicts and rule violations all come back as field-addressed errors.
     */
    public static RouteConfigValidation read(String json) {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            return RouteConfigValidation.invalid(List.of(new RouteConfigError("$", "not JSON: " + e.getOriginalMessage())));
        }
        if (!(tree instanceof ObjectNode document)) {
            return RouteConfigValidation.invalid(List.of(new RouteConfigError("$", "must be a JSON object")));
        }
        List<RouteConfigError> errors = LegacyPolicyNormalizer.normalize(document, MAPPER::valueToTree);
        if (!errors.isEmpty()) {
            return RouteConfigValidation.invalid(errors);
        }
        RouteConfig config;
        try {
            config = MAPPER.treeToValue(document, RouteConfig.class);
        } catch (JsonMappingException e) {
            return RouteConfigValidation.invalid(List.of(new RouteConfigError(path(e), e.getOriginalMessage())));
        } catch (JsonProcessingException e) {
            return RouteConfigValidation.invalid(List.of(new RouteConfigError("$", e.getOriginalMessage())));
        }
        errors = RouteConfigValidator.validate(config);
        return errors.isEmpty() ? RouteConfigValidation.valid(config) : RouteConfigValidation.invalid(errors);
    }

    /** The normalized document as JSON (snake_case field names). */
    public static String write(RouteConfig config) {
        try {
            return MAPPER.writeValueAsString(config);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                if (!sb.isEmpty()) {
                    sb.append('.');
                }
                sb.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.isEmpty() ? "$" : sb.toString();
    }
}
