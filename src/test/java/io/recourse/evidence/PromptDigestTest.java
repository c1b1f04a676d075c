package io.recourse.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

public class PromptDigestTest {

    @Test
    public void theCanonicalFormMatchesTheRfc8785Example() {
        String input = "{\"numbers\": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],"
                + " \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\", \"literals\": [null, true, false]}";

        assertThat(PromptDigest.canonical(Frames.json(input))).isEqualTo(
                "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
                        + "\"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
    }

    @Test
    public void objectMembersAreSortedAndWhitespaceIsRemoved() {
        assertThat(PromptDigest.canonical(Frames.json("{ \"b\" : [ 1 , {\"z\":1,\"a\":2} ], \"a\" : \"x\" }")))
                .isEqualTo("{\"a\":\"x\",\"b\":[1,{\"a\":2,\"z\":1}]}");
    }

    @ParameterizedTest
    @CsvSource({"100,100", "1e21,1e+21", "1e20,100000000000000000000", "0.000001,0.000001", "1e-7,1e-7", "-0.5,-0.5", "-0,0", "1.50,1.5"})
    public void numbersUseTheEcmaScriptForm(String json, String canonical) {
        assertThat(PromptDigest.canonical(Frames.json(json))).isEqualTo(canonical);
    }

    @Test
    public void theDigestIsLowerCaseHexSha256OfTheCanonicalUtf8() throws Exception {
        String canonical = "[{\"text\":\"hé\",\"type\":\"text\"}]";
        String expected = HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));

        assertThat(PromptDigest.digest(Frames.json("[{\"type\":\"text\",\"text\":\"hé\"}]"))).isEqualTo(expected).matches("[0-9a-f]{64}");
    }

    @Test
    public void equalPromptsWithDifferentMemberOrderHaveTheSameDigest() {
        assertThat(PromptDigest.digest(Frames.json("{\"a\":1,\"b\":[true]}")))
                .isEqualTo(PromptDigest.digest(Frames.json("{\"b\":[true],\"a\":1.0}")));
    }

    @Test
    public void anAbsentValueHasNoDigest() {
        assertThat(PromptDigest.digest(null)).isNull();
    }
}
