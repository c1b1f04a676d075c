package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
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

    @Test
    public void everyRegexOfTheShippedCatalogueIsSafeOnItsOwnEachElementOfAListToo() {
        Catalogue c = Catalogue.loadDefault();
        List<Rule.Condition> conditions = new ArrayList<>();
        c.rules().forEach(r -> conditions.addAll(r.conditions()));
        c.backgroundMarkers().forEach(m -> conditions.add(m.condition()));
        c.surfacedShapes().forEach(m -> conditions.add(m.condition()));
        List<Pattern> patterns = new ArrayList<>();
        int lists = 0;
        for (Rule.Condition cond : conditions) {
            for (Rule.FieldMatch f : new Rule.FieldMatch[] {cond.match(), cond.unless()}) {
                if (f != null && f.type() == Rule.MatchType.REGEX) {
                    assertThat(f.patterns()).hasSizeBetween(1, CatalogueConditions.MAX_REGEX_PARTS);
                    patterns.addAll(f.patterns());
                    lists += f.patterns().size() > 1 ? 1 : 0;
                }
            }
        }
        for (Pattern p : patterns) {
            assertThat(p.pattern().length()).as(p.pattern()).isLessThanOrEqualTo(RegexSafety.MAX_LENGTH);
            assertThat(RegexSafety.check(p.pattern())).as(p.pattern()).isNull();
        }
        assertThat(lists).as("conditions with a regex or unless list").isPositive();
    }
}
