package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * An alternative {@code ^[\s\S]{0,N}(?:A|B|…)S} is read as the pieces {@code A}, {@code B}, … each
 * to start within the first N code points ({@link RegexSource#windowed}); both the prefilter's
 * {@link RegexPrefilter#find} and each piece's {@link RegexAlternative#find} (leading literals,
 * leading characters, anchored, or the windowed {@code find()}) answer exactly as the whole regex's
 * {@code find()}: on generated patterns with small windows (so the window's edge is reached) over
 * texts with supplementary characters and lone surrogates, case-sensitive and not.
 */
public class WindowedAlternativeProperties {

    private static final long SEED = 0x5A41_7153_0108L;

    private static final List<String> PIECES = List.of("ab", "\\bcd\\b", "(?<![a-z])ef", "^x", "[45]\\d", "e$", "\uD83D\uDE00",
            "b(?=c)", "(?i:AB)c", "\\W{0,2}a", "\\uDE00", "[\\uDC00-\\uDFFF]a?", "x\\s{1,2}y", "(?:ab|cd)e", "\\bd", "错误", "[^a-z]b", "a(?!b)");
    private static final List<String> SUFFIXES = List.of("", "c", "\\s?d", "(?:x|y)");
    private static final List<String> TEXT = List.of("a", "b", "c", "d", "e", "f", "x", "y", "4", "5", " ", "\n", "AB",
            "\uD83D\uDE00", "\uD83D", "\uDE00", "É", "错误", "ab", "cd", "ef");

    private static Pattern pattern(int window, boolean lazy, boolean ci, List<Integer> pieces, int suffix) {
        String group = pieces.stream().map(PIECES::get).collect(Collectors.joining("|"));
        String re = "^[\\s\\S]{0," + window + "}" + (lazy ? "?" : "") + "(?:" + group + ")" + SUFFIXES.get(suffix);
        return Pattern.compile(re, ci ? Pattern.CASE_INSENSITIVE : 0);
    }

    /** Every piece's own {@link RegexAlternative#find}, as {@link RuleIndex} runs it (no literal scan: leading literals by search). */
    private static boolean piecesFind(Pattern p, String text) {
        RegexPrefilter f = RegexPrefilter.of(p);
        List<RegexPrefilter.Part> parts = f.parts();
        Matcher[] matchers = new Matcher[parts.size()];
        for (int k = 0; k < parts.size(); k++) {
            RegexPrefilter.Part part = parts.get(k);
            String[] starts = part.literals();
            int[] startIds = null;
            if (starts != null) {
                startIds = new int[starts.length];
                java.util.Arrays.fill(startIds, -1);
            }
            RegexAlternative a = new RegexAlternative(k, 0, part.pattern(), List.of(), starts, startIds, !f.ignoreCase(),
                    List.of(), part.window());
            if (a.find(text, new int[0], matchers)) {
                return true;
            }
        }
        return false;
    }

    @Test
    public void windowedPiecesFindExactlyWhatTheWholeRegexFinds() {
        Gen<String> texts = lists().of(Generate.pick(TEXT)).ofSizeBetween(0, 16)
                .map(parts -> String.join("", parts));
        Gen<List<Integer>> groups = lists().of(integers().between(0, PIECES.size() - 1)).ofSizeBetween(1, 4);
        int[] matched = {0};
        qt().withFixedSeed(SEED).withExamples(6000)
                .forAll(texts, groups, integers().between(0, 6), integers().between(0, 7))
                .checkAssert((text, group, window, variant) -> {
                    Pattern p = pattern(window, (variant & 1) != 0, (variant & 2) != 0, group, (variant >> 2) % SUFFIXES.size());
                    boolean expected = p.matcher(text).find();
                    matched[0] += expected ? 1 : 0;
                    assertThat(RegexPrefilter.of(p).parts()).as("/%s/ is windowed", p.pattern())
                            .allMatch(part -> part.window() == window);
                    assertThat(RegexPrefilter.of(p).find(text)).as("prefilter /%s/ on '%s'", p.pattern(), text).isEqualTo(expected);
                    assertThat(piecesFind(p, text)).as("pieces /%s/ on '%s'", p.pattern(), text).isEqualTo(expected);
                });
        assertThat(matched[0]).as("examples some regex matches").isGreaterThan(400);
    }

    @Test
    public void onlyTheAnyCharacterPrefixFromTheStartIsWindowed() {
        assertThat(RegexSource.windowed("^[\\s\\S]{0,240}(?:error|fail)")).isEqualTo(
                new RegexSource.Windowed(240, List.of("error", "fail")));
        assertThat(RegexSource.windowed("^[\\S\\s]{0,3}?(?:a|b)c")).isEqualTo(
                new RegexSource.Windowed(3, List.of("(?:a)c", "(?:b)c")));
        assertThat(RegexSource.windowed("^[\\s\\S]{0,3}abc")).isEqualTo(new RegexSource.Windowed(3, List.of("abc")));
        assertThat(RegexSource.windowed("^[\\s\\S]{0,3}(?:a|b)?c")).as("an optional group").isEqualTo(
                new RegexSource.Windowed(3, List.of("(?:a|b)?c")));
        List<String> none = new ArrayList<>(List.of("[\\s\\S]{0,3}(?:a|b)", "^[\\s\\S]{1,3}(?:a|b)", "^[^\\n]{0,3}a",
                "^[\\s\\S]{0,3}+a", "^[\\s\\S]{0,3}", "^[\\s\\S]{0,3}*a"));
        for (String re : none) {
            assertThat(RegexSource.windowed(re)).as(re).isNull();
        }
        Pattern multiline = Pattern.compile("^[\\s\\S]{0,3}(?:a|b)", Pattern.MULTILINE);
        assertThat(RegexPrefilter.of(multiline).parts()).as("MULTILINE: '^' after every line break").allMatch(p -> p.window() < 0);
    }
}
