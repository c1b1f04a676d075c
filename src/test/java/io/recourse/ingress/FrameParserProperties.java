package io.recourse.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Frame parsing never fails with anything but a {@link FrameRejectedException} (DESIGN §3: the stream thread never dies). */
class FrameParserProperties {

    private final FrameParser parser = new FrameParser(4096);

    @Property(tries = 500)
    void arbitraryBytesAreParsedOrRejectedWithAReason(@ForAll byte[] value, @ForAll("keys") String key) {
        assertThat(outcome(key, value)).isNotNull();
    }

    @Property(tries = 500)
    void arbitraryTextIsParsedOrRejectedWithAReason(@ForAll String value, @ForAll("keys") String key) {
        assertThat(outcome(key, value.getBytes(StandardCharsets.UTF_8))).isNotNull();
    }

    @Property(tries = 1000)
    void aValidFrameWithOneFieldReplacedIsParsedOrRejectedWithAReason(
            @ForAll("fields") String field, @ForAll("jsonValues") JsonNode value, @ForAll("keys") String key) {
        ObjectNode f = FrameParserTest.validFrame();
        f.set(field, value);

        Object result = outcome(key, f.toString().getBytes(StandardCharsets.UTF_8));

        assertThat(result).isNotNull();
        if (result instanceof Frame frame) {
            assertThat(frame.turnKey()).isEqualTo(key);
        }
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

    @Provide
    Arbitrary<String> keys() {
        return Arbitraries.oneOf(Arbitraries.just("sess-1/3"), Arbitraries.strings().ofMaxLength(20),
                Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(5).map(s -> s + "/3"));
    }

    @Provide
    Arbitrary<String> fields() {
        return Arbitraries.of("session_id", "prompt_generation", "seq", "occurred_at", "source", "payload", "phase",
                "profile_kind", "prompt_origin", "retry_of_generation", "turn_config", "resume_guarantee", "workspace_id",
                "agent_type", "unknown_field");
    }

    @Provide
    Arbitrary<JsonNode> jsonValues() {
        com.fasterxml.jackson.databind.node.JsonNodeFactory n = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
        return Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(30).map(n::textNode),
                Arbitraries.longs().map(n::numberNode),
                Arbitraries.doubles().map(n::numberNode),
                Arbitraries.of(true, false).map(n::booleanNode),
                Arbitraries.just(n.nullNode()),
                Arbitraries.just(n.arrayNode().add(1)),
                Arbitraries.of("stderr", "exit", "dynamic", "streaming", "retry", "2026-06-01T12:00:00Z").map(n::textNode),
                Arbitraries.just(n.objectNode().put("line", "x")));
    }
}
