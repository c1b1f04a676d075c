package io.recourse.routing;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.recourse.ingress.StrictJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Route configuration documents as JSON (DESIGN §7.1), with Jackson: {@link #read(byte[])} decodes
 * strictly, parses, normalizes legacy maps ({@link LegacyPolicyNormalizer}) and validates
 * ({@link RouteConfigValidator}); {@link #write(RouteConfig)} writes the normalized form, which
 * {@link #read(String)} reads back to an equal value.
 *
 * <p>Strict where it matters: the bytes must be well-formed UTF-8 (never replaced by U+FFFD) of at
 * most {@value #MAX_DOCUMENT_BYTES} bytes; duplicate member names are errors (Jackson
 * {@link StreamReadFeature#STRICT_DUPLICATE_DETECTION}); types are exact — no string→number or
 * number→boolean coercion ({@code "version":"1"}, {@code "max_retries":"5"}), no fraction for an
 * integer ({@code 2.5}). Lenient where it must be: an unknown member is ignored and reported in
 * {@link RouteConfigValidation#unknownFields()} (a newer settings service may add some).
 */
public final class RouteConfigJson {

    /** The largest document accepted, in bytes (32 candidates of bounded ids fit many times over). */
    public static final int MAX_DOCUMENT_BYTES = 64 * 1024;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .withCoercionConfigDefaults(c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Textual, c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .build();

    private RouteConfigJson() {
    }

    /**
     * Reads one profile document from its record bytes: larger than {@value #MAX_DOCUMENT_BYTES}
     * bytes or not well-formed UTF-8 → an error at {@code $}; otherwise {@link #read(String)}.
     */
    public static RouteConfigValidation read(byte[] bytes) {
        if (bytes.length > MAX_DOCUMENT_BYTES) {
            return RouteConfigValidation.invalid(List.of(new RouteConfigError("$",
                    "larger than " + MAX_DOCUMENT_BYTES + " bytes")));
        }
        String text;
        try {
            text = StrictJson.utf8(bytes);
        } catch (StrictJson.Invalid e) {
            return RouteConfigValidation.invalid(List.of(new RouteConfigError("$", e.getMessage())));
        }
        return read(text);
    }

    /**
     * Reads one profile document. Never throws for bad input: malformed JSON, duplicate members,
     * wrong types, legacy conflicts and rule violations all come back as field-addressed errors;
     * unknown members come back as {@link RouteConfigValidation#unknownFields()}.
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
        JsonNode candidates = document.get("candidates");
        if (candidates != null && candidates.isArray() && candidates.size() > RouteConfigValidator.MAX_CANDIDATES) {
            return RouteConfigValidation.invalid(List.of(new RouteConfigError("candidates",
                    "must list at most " + RouteConfigValidator.MAX_CANDIDATES + " candidates, was " + candidates.size())));
        }
        List<RouteConfigError> errors = LegacyPolicyNormalizer.normalize(document, MAPPER::valueToTree);
        if (!errors.isEmpty()) {
            return RouteConfigValidation.invalid(errors);
        }
        List<String> unknown = new ArrayList<>();
        RouteConfig config;
        try {
            config = MAPPER.readerFor(RouteConfig.class).withHandler(new UnknownFields(unknown)).readValue(document);
        } catch (JsonMappingException e) {
            return RouteConfigValidation.invalid(List.of(new RouteConfigError(path(e), e.getOriginalMessage())));
        } catch (IOException e) {
            return RouteConfigValidation.invalid(List.of(new RouteConfigError("$", e.getMessage())));
        }
        errors = RouteConfigValidator.validate(config);
        return errors.isEmpty() ? RouteConfigValidation.valid(config, unknown) : RouteConfigValidation.invalid(errors);
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

    /** Skips and records unknown members, as {@code candidates[0].colour}. */
    private static final class UnknownFields extends DeserializationProblemHandler {

        private final List<String> paths;

        UnknownFields(List<String> paths) {
            this.paths = paths;
        }

        @Override
        public boolean handleUnknownProperty(DeserializationContext ctxt, JsonParser p, JsonDeserializer<?> deserializer,
                                             Object beanOrClass, String propertyName) throws IOException {
            paths.add(path(p.getParsingContext()));
            p.skipChildren();
            return true;
        }

        /** The path of the member the parser is at, from the innermost context out. */
        private static String path(JsonStreamContext context) {
            List<String> parts = new ArrayList<>();
            for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
                if (c.inArray()) {
                    parts.add("[" + c.getCurrentIndex() + "]");
                } else if (c.getCurrentName() != null) {
                    parts.add(c.getCurrentName());
                }
            }
            StringBuilder sb = new StringBuilder();
            for (int i = parts.size() - 1; i >= 0; i--) {
                String part = parts.get(i);
                if (!sb.isEmpty() && !part.startsWith("[")) {
                    sb.append('.');
                }
                sb.append(part);
            }
            return sb.toString();
        }
    }
}
