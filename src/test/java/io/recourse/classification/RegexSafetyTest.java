package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The catastrophic-backtracking check catalogue regexes must pass (DESIGN §5.2 "bounded input"). */
public class RegexSafetyTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "(a+)+", "(a*)*b", "(?:x|xx){1,40}", "(\\w{1,5}){1,50}", ".*", "a+", "x{3,}", "(a)\\1",
        ".{0,256}.{0,256}.{0,256}", "(?:ab|a){1,200}c"})
    public void rejectsPatternsThatCanBacktrackCatastrophically(String regex) {
        assertThat(RegexSafety.check(regex)).as(regex).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "(?i)rate[\\s_-]?limit", "API\\s{1,3}Error:\\s{0,2}529(?!\\d)", "(?<![a-z0-9_])overloaded_error(?![a-z0-9_])",
        "^\\s{0,3}selected\\s{1,5}model\\s{1,5}is\\s{1,5}at\\s{1,5}capacity", "(?:foo|bar)?baz", "[^\\n]{0,160}cannot",
        "\\Qa+b\\E", "\\p{Alpha}{1,4}"})
    public void acceptsBoundedPatterns(String regex) {
        assertThat(RegexSafety.check(regex)).as(regex).isNull();
    }
}
