package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * {@link RequiredChars}: a text a regex finds a match in holds a member of each of its sets — for
 * every top-level alternative of the shipped catalogues' regexes and for hand-picked shapes, on
 * generated texts. And the regexes it refuses.
 */
public class RequiredCharsProperties {

    private static final long SEED = 0x5EC0_12EDL;

    private static final List<String> SHAPES = List.of("\\s[—–]\\s{1,3}(?:that|it)\\s", "请更新到\\s{0,3}[\\w.-]{1,20}", "(?:使用上限|限额)[\\s\\S]{0,12}重置",
            "⚠️?\\s{1,3}x", "a—?b", "a—{0,2}b", "a—{1,2}b", "a[—–]*b", "(?:—|x)y", "(?<!—)x", "(?=—)—x", "[^—]x", "é+x",
            "x\\u2014y", "[\\[—]x", "(?i)ÉX", "(?i:é)x", "é|x", "x(?:y)—");

    private static final List<String> PIECES = List.of("a", "b", "x", "y", " ", "  ", "\n", "—", "–", "-", "é", "É", "⚠", "⚠️", "\uFE0F", "that",
            " it ", "请更新到", "1.2", "使用上限", "限额", "重置", "😀", "\u2014", "ab", "xy", "X");

    private static List<Pattern> patterns() {
        return CatalogueRegexParts.withShapes(SHAPES);
    }

    private static Gen<String> texts() {
        return lists().of(Generate.pick(PIECES)).ofSizeBetween(1, 12).map(l -> String.join("", l));
    }

    @Test
    public void aTextWithAMatchHoldsEverySet() {
        List<Pattern> withSets = new ArrayList<>();
        List<char[][]> sets = new ArrayList<>();
        for (Pattern p : patterns()) {
            char[][] s = RequiredChars.of(p.pattern(), p.flags());
            if (s != null) {
                withSets.add(p);
                sets.add(s);
            }
        }
        assertThat(withSets).as("regexes with required characters").hasSizeGreaterThan(40);
        qt().withFixedSeed(SEED).withExamples(8000).forAll(texts(), integers().between(0, withSets.size() - 1))
                .checkAssert((text, k) -> {
                    if (withSets.get(k).matcher(text).find()) {
                        assertThat(RequiredChars.present(text, sets.get(k))).as("/%s/ finds a match in %s", withSets.get(k).pattern(), text)
                                .isTrue();
                    }
                });
        // every shape with a set is matched by some text of its pieces (the property is not vacuous)
        assertThat(Pattern.compile("\\s[—–]\\s{1,3}(?:that|it)\\s").matcher("x — that ").find()).isTrue();
    }

    @Test
    public void setsAreReadFromNonOptionalTopLevelAtomsOnly() {
        assertThat(RequiredChars.of("\\s[—–]\\s", 0)).isDeepEqualTo(new char[][] {{'—', '–'}});
        assertThat(RequiredChars.of("(?:使用上限|限额)[\\s\\S]{0,120}重置", 0)).isDeepEqualTo(new char[][] {{'重'}, {'置'}});
        assertThat(RequiredChars.of("⚠️?\\s", 0)).as("the quantifier binds the last character").isDeepEqualTo(new char[][] {{'⚠'}});
        assertThat(RequiredChars.of("a—{1,2}b", 0)).isDeepEqualTo(new char[][] {{'—'}});
        assertThat(RequiredChars.of("é", Pattern.CASE_INSENSITIVE)).as("no Unicode case: compared as itself").isDeepEqualTo(new char[][] {{'é'}});
        assertThat(RequiredChars.of("a—?b", 0)).as("optional").isNull();
        assertThat(RequiredChars.of("a—*b", 0)).as("optional").isNull();
        assertThat(RequiredChars.of("a—{0,2}b", 0)).as("optional").isNull();
        assertThat(RequiredChars.of("(?:—)x", 0)).as("inside a group").isNull();
        assertThat(RequiredChars.of("(?<!—)x", 0)).as("inside a lookbehind").isNull();
        assertThat(RequiredChars.of("[^—]x", 0)).as("negated class").isNull();
        assertThat(RequiredChars.of("[—-–]x", 0)).as("range").isNull();
        assertThat(RequiredChars.of("[a—]x", 0)).as("an ASCII member").isNull();
        assertThat(RequiredChars.of("[—[–]]x", 0)).as("nested class").isNull();
        assertThat(RequiredChars.of("—|x", 0)).as("top-level alternation").isNull();
        assertThat(RequiredChars.of("é", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE)).as("Unicode case").isNull();
        assertThat(RequiredChars.of("(?iu)é", 0)).as("inline Unicode case").isNull();
        assertThat(RequiredChars.of("(?x)— x", 0)).as("inline comments").isNull();
        assertThat(RequiredChars.of("\\Q—\\E", 0)).as("quoting").isNull();
        assertThat(RequiredChars.of("x\\u2014y", 0)).as("escapes are not read").isNull();
        assertThat(RequiredChars.of("a😀", 0)).as("supplementary").isNull();
        assertThat(RequiredChars.present("plain English text", new char[][] {{'—', '–'}})).isFalse();
        assertThat(RequiredChars.present("a – b", new char[][] {{'—', '–'}})).isTrue();
        assertThat(RequiredChars.present("重 only", new char[][] {{'重'}, {'置'}})).isFalse();
    }
}
