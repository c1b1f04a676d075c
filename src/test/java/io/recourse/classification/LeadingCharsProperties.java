package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * {@link LeadingChars}: wherever a regex matches from a position (a region from there with
 * transparent, non-anchoring bounds, as {@link RegexAlternative#find} tries it), the character
 * there is one of the regex's leading characters — for every top-level alternative of the shipped
 * catalogues' regexes and for hand-picked shapes, on generated texts. And the sets it refuses.
 */
public class LeadingCharsProperties {

    private static final long SEED = 0x1EAD_C4A2L;

    private static final List<String> SHAPES = List.of("[}\\])]\\s{1,3}[a-z]{2,12}", "[.!?]\\s{1,3}(?:is|was)", "(?<![\\w'])I(?:\\s{1,3}ran)",
            "\\n[ \\t]{0,8}\\n", "(?<=x)(?!xy)x{2}", "[\\s⎿⏺]{1,8}API", "\\d{3}\\s", "\\w+_error", "[a-cx-z-]{1,2}q", "\\.\\.", "é+",
            "(?<![\\w'])(?i:you)\\s{1,3}ran", "(?:[}\\]]|(?<!\\d)(?<!\\(s)\\))\\s{1,3}[a-z]{2,12}", "(?:(?i:x)|\\s)y");

    private static final List<String> PIECES = List.of("a", "b", "c", "q", "x", "y", "z", "I", "i", " ran", " I ran", ".", "!", "?", "}",
            "]", ")", " ", "  ", "\t", "\n", "\n\n", "is", " was", "API", "⎿", "⏺", "é", "É", "429 ", "rate_error", "_error", "-",
            "😀", "\u212A", "İ", "ab", "..", "Error: ", "'", "xx", "xxy",
            "you", "You", "YOU", "X", "(s)", "1)");

    private static List<Pattern> patterns() {
        return CatalogueRegexParts.withShapes(SHAPES);
    }

    private static Gen<String> texts() {
        return lists().of(Generate.pick(PIECES)).ofSizeBetween(1, 16).map(l -> String.join("", l));
    }

    @Test
    public void everyPositionARegexMatchesFromHoldsALeadingCharacter() {
        List<Pattern> patterns = patterns();
        List<Pattern> withSets = new ArrayList<>();
        List<LeadingChars> sets = new ArrayList<>();
        for (Pattern p : patterns) {
            LeadingChars l = LeadingChars.of(p.pattern(), p.flags());
            if (l != null) {
                withSets.add(p);
                sets.add(l);
            }
        }
        assertThat(withSets).as("regexes with a leading set").hasSizeGreaterThan(20);
        qt().withFixedSeed(SEED).withExamples(6000).forAll(texts(), integers().between(0, withSets.size() - 1))
                .checkAssert((text, k) -> {
                    Matcher m = withSets.get(k).matcher(text).useTransparentBounds(true).useAnchoringBounds(false);
                    for (int p = 0; p < text.length(); p++) {
                        if (m.region(p, text.length()).lookingAt()) {
                            assertThat(sets.get(k).contains(text.charAt(p)))
                                    .as("/%s/ matches from %d of %s", withSets.get(k).pattern(), p, text).isTrue();
                        }
                    }
                    assertThat(m.reset().region(text.length(), text.length()).lookingAt()).as("no empty match").isFalse();
                });
    }

    @Test
    public void setsAreReadFromTheFirstConsumingAtomOnly() {
        LeadingChars punct = LeadingChars.of("(?<![a-z])[.!?]\\s{1,3}is", 0);
        assertThat(punct.contains('.')).isTrue();
        assertThat(punct.contains('?')).isTrue();
        assertThat(punct.contains('a')).isFalse();
        assertThat(LeadingChars.of("i\\s", Pattern.CASE_INSENSITIVE).contains('I')).isTrue();
        assertThat(LeadingChars.of("\\s{1,3}x", 0).contains('\n')).isTrue();
        assertThat(LeadingChars.of("[\\s⎿]{2}", 0).contains('⎿')).isTrue();
        assertThat(LeadingChars.of("a|b", 0)).as("top-level alternation").isNull();
        LeadingChars group = LeadingChars.of("(?:[}\\]]|(?<!\\d)\\))\\s", 0);
        assertThat(group.contains('}') && group.contains(']') && group.contains(')')).as("a group's alternatives").isTrue();
        assertThat(group.contains('s')).isFalse();
        LeadingChars caseless = LeadingChars.of("(?<![\\w'])(?i:you)\\s", 0);
        assertThat(caseless.contains('y') && caseless.contains('Y')).as("(?i:…)").isTrue();
        assertThat(caseless.contains('o')).isFalse();
        assertThat(LeadingChars.of("(?:y)ou", 0).contains('Y')).as("no case folding outside (?i:…)").isFalse();
        assertThat(LeadingChars.of("(a)b", 0)).as("a capturing group").isNull();
        assertThat(LeadingChars.of("(?:a)?b", 0)).as("an optional group").isNull();
        assertThat(LeadingChars.of("(?:a|)b", 0)).as("a group with an empty alternative").isNull();
        assertThat(LeadingChars.of("(?:a|b?)c", 0)).as("a group with an optional alternative").isNull();
        assertThat(LeadingChars.of("(?-i:a)b", Pattern.CASE_INSENSITIVE)).as("other flag groups").isNull();
        assertThat(LeadingChars.of("a?b", 0)).as("optional first atom").isNull();
        assertThat(LeadingChars.of("a{0,2}b", 0)).as("optional first atom").isNull();
        assertThat(LeadingChars.of("[^a]", 0)).as("negated class").isNull();
        assertThat(LeadingChars.of("[a[b]]", 0)).as("nested class").isNull();
        assertThat(LeadingChars.of("^a", 0)).as("anchor").isNull();
        assertThat(LeadingChars.of(".a", 0)).as("any character").isNull();
        assertThat(LeadingChars.of("\\p{L}", 0)).as("property").isNull();
        assertThat(LeadingChars.of("a", Pattern.MULTILINE | Pattern.UNICODE_CASE)).as("flags").isNull();
        assertThat(LeadingChars.of("\\Qa|b\\E", 0)).as("quoting").isNull();
        assertThat(RegexAlternative.minCodePoints("^[\\s\\S]{240}[\\s\\S]{240}")).isEqualTo(480);
        assertThat(RegexAlternative.minCodePoints("^[\\s\\S]{240}x")).isEqualTo(-1);
    }
}
