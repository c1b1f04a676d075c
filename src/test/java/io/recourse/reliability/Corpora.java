package io.recourse.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The harness's two corpora (test resources): {@code reliability/hostile.jsonl}, records that
 * must not stop a stream thread (malformed JSON, huge fields, null keys and values, deep nesting,
 * wrong types, on every input topic), and {@code reliability/secrets.jsonl}, fake credentials the
 * workload plants in every free-text field and in record headers.
 */
final class Corpora {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One hostile record: the logical input topic, key and value bytes (either may be {@code null}), whether it must reach the DLQ. */
    record Hostile(String id, String topic, byte[] key, byte[] value, boolean expectDlq, String note) {
    }

    /** One fake secret and the text around it ({@code {S}} marks the secret). */
    record Secret(String kind, String secret, String context) {
        String inContext() {
            return context.replace("{S}", secret);
        }
    }

    private Corpora() {
    }

    static List<Hostile> hostile() {
        List<Hostile> out = new ArrayList<>();
        for (JsonNode n : lines("reliability/hostile.jsonl")) {
            int pad = n.path("pad").asInt(0);
            int nest = n.path("nest").asInt(0);
            byte[] key = n.get("key").isNull() ? null : expand(n.get("key").asText(), pad, nest);
            byte[] value;
            if (n.hasNonNull("raw_hex")) {
                value = HexFormat.of().parseHex(n.get("raw_hex").asText());
            } else {
                value = n.get("value").isNull() ? null : expand(n.get("value").asText(), pad, nest);
            }
            if ((key == null ? 0 : key.length) + (value == null ? 0 : value.length) >= 1_000_000) {
                throw new IllegalStateException("hostile record " + n.get("id") + " is 1 MB or more");
            }
            out.add(new Hostile(n.get("id").asText(), n.get("topic").asText(), key, value, "dlq".equals(n.path("expect").asText()),
                    n.path("note").asText()));
        }
        return out;
    }

    static List<Secret> secrets() {
        List<Secret> out = new ArrayList<>();
        for (JsonNode n : lines("reliability/secrets.jsonl")) {
            out.add(new Secret(n.get("kind").asText(), n.get("secret").asText(), n.get("context").asText()));
        }
        return out;
    }

    private static byte[] expand(String template, int pad, int nest) {
        String s = template;
        if (pad > 0) {
            s = s.replace("{PAD}", "A".repeat(pad));
        }
        if (nest > 0) {
            s = s.replace("{NEST}", "[".repeat(nest) + "]".repeat(nest));
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<JsonNode> lines(String resource) {
        List<JsonNode> out = new ArrayList<>();
        try (InputStream in = Corpora.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isBlank()) {
                    out.add(JSON.readTree(line));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
