package io.recourse.streams;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.recourse.ingress.Frame;
import java.io.IOException;

/**
 * A small stand-in for the ingress stage's {@code FrameParser} until the topology is wired to it:
 * checks that the value is a JSON object, that {@code session_id} and {@code prompt_generation}
 * are present and agree with the key (split at its last {@code /}, DESIGN §2), and binds the
 * envelope to a {@link Frame}. Codes: {@code invalid_json}, {@code missing_field},
 * {@code invalid_field}, {@code key_mismatch}.
 */
public final class InterimFrameAdmission implements FrameAdmission {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    @Override
    public Frame admit(String key, byte[] value) throws FrameRejection {
        JsonNode node;
        try {
            node = JSON.readTree(value);
        } catch (IOException e) {
            throw new FrameRejection("invalid_json", "value is not JSON: " + (e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()));
        }
        if (node == null || !node.isObject()) {
            throw new FrameRejection("invalid_json", "value is not a JSON object");
        }
        for (String field : new String[] {"session_id", "prompt_generation", "seq", "occurred_at", "source", "payload"}) {
            if (!node.hasNonNull(field)) {
                throw new FrameRejection("missing_field", "required field '" + field + "' is missing");
            }
        }
        if (key == null || key.lastIndexOf('/') < 0) {
            throw new FrameRejection("key_mismatch", "key '" + key + "' is not <session_id>/<prompt_generation>");
        }
        int slash = key.lastIndexOf('/');
        String keySession = key.substring(0, slash);
        String keyGeneration = key.substring(slash + 1);
        if (!keySession.equals(node.get("session_id").asText()) || !keyGeneration.equals(node.get("prompt_generation").asText())) {
            throw new FrameRejection("key_mismatch", "key '" + key + "' disagrees with session_id/prompt_generation of the body");
        }
        try {
            return JSON.treeToValue(node, Frame.class);
        } catch (JsonProcessingException e) {
            throw new FrameRejection("invalid_field", e.getOriginalMessage());
        }
    }
}
