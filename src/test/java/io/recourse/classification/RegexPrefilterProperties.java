package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * {@link RegexPrefilter#find} answers exactly as its regex's {@code find()}: checked for every
 * regex of the shipped catalogue (rules, conditions' {@code unless}, markers) on the corpus's
 * texts and on generated texts made of the patterns' own literals and words and separators.
 */
public class RegexPrefilterProperties {

    private static final long SEED = 0x5A41_7153_0009L;
    private static final Catalogue CATALOGUE = Catalogue.loadDefault();

    private static List<Pattern> patterns() {
        List<Pattern> out = new ArrayList<>();
        List<Rule.Condition> conditions = new ArrayList<>();
        CATALOGUE.rules().forEach(r -> conditions.addAll(r.conditions()));
        CATALOGUE.backgroundMarkers().forEach(m -> conditions.add(m.condition()));
        CATALOGUE.surfacedShapes().forEach(m -> conditions.add(m.condition()));
        for (Rule.Condition c : conditions) {
            for (Rule.FieldMatch f : new Rule.FieldMatch[] {c.match(), c.unless()}) {
                if (f != null && f.type() == Rule.MatchType.REGEX) {
                    out.addAll(f.patterns()); // each of a list as a regex of its own
                }
            }
        }
        return out;
    }

    /** Every string value in the corpus signature lines: messages, stderr lines, bodies, chunks. */
    private static List<String> corpusTexts() {
        List<String> out = new ArrayList<>();
        for (JsonNode n : SignatureFixtures.readJson("corpus/signatures.jsonl")) {
            collect(n, out);
        }
        for (JsonNode n : SignatureFixtures.readJson("corpus/sequences.jsonl")) {
            collect(n, out);
        }
        return out;
    }

    private static void collect(JsonNode n, List<String> out) {
        if (n.isTextual()) {
            out.add(n.asText());
        } else if (n.isContainerNode()) {
            n.forEach(c -> collect(c, out));
            if (n.isObject()) {
                out.add(n.toString()); // bodies and data are read as JSON text too
            }
        }
    }

    /**
     * Most top-level alternatives of the catalogue regexes are narrowed before the regex runs: by
     * their literals (RegexPrefilter) or, without literals, by the set of characters a match can
     * begin with ({@link LeadingChars}), so the engine never tries them at every position.
     */
    @Test
    public void mostAlternativesOfTheCatalogueRegexesAreNarrowed() {
        int parts = 0;
        int narrowed = 0;
        for (Pattern p : patterns()) {
            for (RegexPrefilter.Part part : RegexPrefilter.of(p).parts()) {
                parts++;
                boolean literals = part.literals() != null || part.required() != null;
                narrowed += literals || LeadingChars.of(part.pattern().pattern(), p.flags()) != null ? 1 : 0;
            }
        }

        assertThat(narrowed).as("alternatives narrowed by literals or leading characters, of %d", parts)
                .isGreaterThan(parts * 3 / 4);
    }

    @Test
    public void findAgreesWithTheRegexOnEveryCorpusText() {
        List<String> texts = corpusTexts();
        int matches = 0;
        for (Pattern p : patterns()) {
            RegexPrefilter f = RegexPrefilter.of(p);
            for (String t : texts) {
                boolean expected = p.matcher(t).find();
                matches += expected ? 1 : 0;
                assertThat(f.find(t)).as("/%s/ on %s", p.pattern(), t).isEqualTo(expected);
            }
        }
        assertThat(matches).as("texts some regex matches").isGreaterThan(100);
    }

    @Test
    public void findAgreesWithTheRegexOnGeneratedTexts() {
        List<Pattern> patterns = patterns();
        List<String> pieces = new ArrayList<>(List.of(" ", "  ", "\n", ":", "\"", "'", "`", "-", "_", ".", "/", "0",
                "429", "529", "500", "{", "}", "=", "a", "the", "your", "is", "has been", "not", "error", "limit"));
        for (Pattern p : patterns) {
            List<String> lits = RegexPrefilter.of(p).literals();
            if (lits != null) {
                pieces.addAll(lits);
                lits.forEach(l -> pieces.add(l.toUpperCase(Locale.ROOT)));
            }
            // words of the pattern itself, so generated texts come near its matches
            for (String w : p.pattern().split("[^A-Za-z0-9_]+")) {
                if (w.length() > 1) {
                    pieces.add(w);
                }
            }
        }
        Gen<String> texts = lists().of(Generate.pick(pieces)).ofSizeBetween(1, 14)
                .map(parts -> parts.stream().collect(Collectors.joining()));
        qt().withFixedSeed(SEED).withExamples(4000)
                .forAll(texts, integers().between(0, patterns.size() - 1))
                .checkAssert((text, i) -> {
                    Pattern p = patterns.get(i);
                    assertThat(RegexPrefilter.of(p).find(text)).as("/%s/ on %s", p.pattern(), text)
                            .isEqualTo(p.matcher(text).find());
                });
    }

    @Test
    public void aLeadingLiteralStopsBeforeAnOptionalAtomAndAfterARepeatedOne() {
        assertThat(RegexSource.leadingLiteral("usage_?limit")).isEqualTo("usage");
        assertThat(RegexSource.leadingLiteral("(?<![a-z0-9_])rate_limit_(?:error)")).isEqualTo("rate_limit_");
        assertThat(RegexSource.leadingLiteral("API\\s{1,3}Error")).isEqualTo("API");
        assertThat(RegexSource.leadingLiteral("ab+c")).isEqualTo("ab");
        assertThat(RegexSource.leadingLiteral("\\\"code\\\"")).isEqualTo("\"code\"");
        assertThat(RegexSource.leadingLiteral("(?:x|y)z")).isEmpty();
    }

    @Test
    public void aRequiredRunIsTheLongestLiteralNoQuantifierMakesOptional() {
        assertThat(RegexSource.requiredRun("(?:\\w{1,30}_)?quota[\\s_](?:exceeded)")).isEqualTo("quota");
        assertThat(RegexSource.requiredRun("(?:error|hit)[^\\n]{0,60}(?<![a-z])rate[\\s_-]?limit")).isEqualTo("limit");
        assertThat(RegexSource.requiredRun("[A-Z]{2,20}_API_KEY\\s{1,3}")).isEqualTo("_API_KEY");
        assertThat(RegexSource.requiredRun("colou?r")).isEqualTo("colo");
        assertThat(RegexSource.requiredRun("ab\\.cd+e")).isEqualTo("ab.cd");
        assertThat(RegexSource.requiredRun("\\d{1,3}\\s")).isNull();
    }

    /** An escape's payload (the hex digits of {@code \x22}, of a unicode escape) is not literal text. */
    @Test
    public void aRequiredRunNeverReadsAnEscapesPayloadAsText() {
        assertThat(RegexSource.requiredRun("\\x22result\\x22\\s{0,2}:")).isEqualTo("result");
        assertThat(RegexSource.requiredRun("\\x{22}code\\x{22}")).isEqualTo("code");
        assertThat(RegexSource.requiredRun("\\u0022abc\\u0022")).isEqualTo("abc");
        assertThat(RegexSource.requiredRun("\\0101xyz")).isEqualTo("xyz");
        assertThat(RegexSource.requiredRun("\\p{L}quota")).isEqualTo("quota");
        assertThat(RegexSource.requiredRun("(a)\\1bcd")).isNull();
    }

    @Test
    public void alternativesAreSplitOnlyAtTheTopLevel() {
        assertThat(RegexSource.splitTopLevel("abc|d(e|f)|[|]g|h\\|i")).containsExactly("abc", "d(e|f)", "[|]g", "h\\|i");
        assertThat(RegexPrefilter.of(Pattern.compile("abc|(?i:you)\\sran|(?-i:E)xy")).parts()).as("scoped flag groups").hasSize(3);
        assertThat(RegexPrefilter.of(Pattern.compile("abc|(?i)you")).parts()).as("a flag to the end of the pattern").hasSize(1);
        assertThat(RegexPrefilter.of(Pattern.compile("abc|(?x:y o u)")).parts()).as("a syntax flag").hasSize(1);
        RegexPrefilter scoped = RegexPrefilter.of(Pattern.compile("xyz|(?i:abc)def"));
        for (String t : List.of("xyz", "ABCdef", "abcdef", "abcDEF", "aBcdeF")) {
            assertThat(scoped.find(t)).as(t).isEqualTo(Pattern.compile("xyz|(?i:abc)def").matcher(t).find());
        }
    }
}
