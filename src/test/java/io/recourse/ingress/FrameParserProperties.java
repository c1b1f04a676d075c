package io.recourse.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** Frame parsing never fails with anything but a {@link FrameRejectedException} (DESIGN §3: the stream thread never dies). */
class FrameParserProperties {

    /** Fixed so a failure reproduces on every machine; change it to explore other inputs. */
    private static final long SEED = 0x4652_414D_0003L;

    private final FrameParser parser = new FrameParser(4096);

    @Test
    void arbitraryBytesAreParsedOrRejectedWithAReason() {
        theory(500).forAll(bytes(), keys()).checkAssert((value, key) -> assertThat(outcome(key, value)).isNotNull());
    }

    @Test
    void arbitraryTextIsParsedOrRejectedWithAReason() {
        theory(500).forAll(strings().allPossible().ofLengthBetween(0, 300), keys())
                .checkAssert((value, key) -> assertThat(outcome(key, value.getBytes(StandardCharsets.UTF_8))).isNotNull());
    }

    @Test
    void oversizedArbitraryBytesAreRejectedAsOversized() {
        theory(50).forAll(lists().of(integers().between(-128, 127)).ofSizeBetween(4097, 6000).map(FrameParserProperties::toBytes))
                .checkAssert(value -> assertThat(outcome("sess-1/3", value)).isEqualTo(DlqReason.OVERSIZED));
    }

    @Test
    void aValidFrameWithOneFieldReplacedIsParsedOrRejectedWithAReason() {
        theory(1000).forAll(fields(), jsonValues(), keys()).checkAssert((field, value, key) -> {
            ObjectNode f = FrameParserTest.validFrame();
            f.set(field, value);

            Object result = outcome(key, f.toString().getBytes(StandardCharsets.UTF_8));

            assertThat(result).isNotNull();
            if (result instanceof Frame frame) {
                assertThat(frame.turnKey()).isEqualTo(key);
            }
        });
    }

    /** The parsed frame, or the rejection's reason; any other exception fails the property. */
    private Object outcome(String key, byte[] value) {
        try {
            return parser.parse(key, value);
        } catch (FrameRejectedException e) {
            assertThat(e.reason()).isNotNull();
            assertThat(e.getMessage()).isNotBlank();
            return e.reason();
        }
    }

    private static QuickTheory theory(int examples) {
        return qt().withFixedSeed(SEED).withExamples(examples);
    }

    private static Gen<byte[]> bytes() {
        Gen<byte[]> random = lists().of(integers().between(-128, 127)).ofSizeBetween(0, 300).map(FrameParserProperties::toBytes);
        Gen<byte[]> jsonish = lists().of(Generate.pick(List.of("{", "}", "[", "]", "\"", ":", ",", "session_id", "seq", "1",
                "-1", "null", "true", "\\", "\\u00", "payload", "{}", "\"source\":\"stderr\"", "1e999", " ")))
                .ofSizeBetween(0, 60).map(parts -> String.join("", parts).getBytes(StandardCharsets.UTF_8));
        return Generate.oneOf(random, jsonish);
    }

    private static byte[] toBytes(List<Integer> values) {
        byte[] out = new byte[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = values.get(i).byteValue();
        }
        return out;
    }

    private static Gen<String> keys() {
        return Generate.oneOf(Generate.constant("sess-1/3"), strings().allPossible().ofLengthBetween(0, 20),
                strings().basicLatinAlphabet().ofLengthBetween(1, 5).map(s -> s + "/3"));
    }

    private static Gen<String> fields() {
        return Generate.pick(List.of("session_id", "prompt_generation", "seq", "occurred_at", "source", "payload", "phase",
                "profile_kind", "prompt_origin", "retry_of_generation", "turn_config", "resume_guarantee", "workspace_id",
                "agent_type", "unknown_field"));
    }

    private static Gen<JsonNode> jsonValues() {
        JsonNodeFactory n = JsonNodeFactory.instance;
        return Generate.oneOf(
                strings().allPossible().ofLengthBetween(0, 30).map(s -> (JsonNode) n.textNode(s)),
                longs().all().map(v -> (JsonNode) n.numberNode(v)),
                integers().between(-3, 3).map(v -> (JsonNode) n.numberNode(v + 0.5)),
                Generate.booleans().map(v -> (JsonNode) n.booleanNode(v)),
                Generate.constant((JsonNode) n.nullNode()),
                Generate.constant((JsonNode) n.arrayNode().add(1)),
                Generate.pick(List.of("stderr", "exit", "dynamic", "streaming", "retry", "2026-06-01T12:00:00Z"))
                        .map(s -> (JsonNode) n.textNode(s)),
                Generate.constant((JsonNode) n.objectNode().put("line", "x")));
    }
}
