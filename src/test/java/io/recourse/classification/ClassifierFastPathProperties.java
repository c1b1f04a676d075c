package io.recourse.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import com.fasterxml.jackson.databind.JsonNode;
import io.recourse.classification.Rule.FieldMatch;
import io.recourse.classification.SignatureFixtures.Line;
import io.recourse.evidence.Evidence;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import io.recourse.ingress.FrameSource;
import io.recourse.ingress.Phase;
import io.recourse.taxonomy.Classification;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * {@link Classifier#classify} (the catalogue's {@link RuleIndex}: one literal scan per field,
 * regexes gated by their required literals and started at their leading literals, stop at the
 * first foreground match) answers exactly as the sequential evaluation
 * {@link Classifier#classifySequentially} (every rule in turn, every regex run whole): on every
 * corpus signature line, sequence turn and catalogue fixture, on thousands of generated turns made
 * of the catalogue's own literals in random case with noise, and on 100 KB inputs. Fixed seed.
 */
public class ClassifierFastPathProperties {

    private static final Classifier CLASSIFIER = Classifier.withDefaultCatalogue();
    private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
    /** Fixed so a failure reproduces on every machine; change it to explore other inputs. */
    private static final long SEED = 0x5A41_7153_0FA5L;

    private static final List<String> NOISE = List.of(" ", "  ", "\t", "\n", ".", ",", ":", ";", "=", "\"", "'", "`", "-",
            "_", "/", "\\", "|", "(", ")", "[", "]", "{", "}", "0", "5", "429", "529", "500", "503", "401", "127",
            "1780326000", "2026-06-01T15:00:00Z", "é", "İ", "\u212A", "ß", "\uFF11", "\u0661\u0662\u0667", "😀",
            "{\"error\":{\"type\":\"rate_limit_error\",\"message\":\"", "\"}}", "resets in 4hr 19min", "try again in 20s",
            "Retry-After: 60", "\"retryDelay\": \"25s\"", "\"resets_at\": 1780326300", "|1780326000", "small=true",
            "agent=title", "API Error: 429 ", "API Error: 529 ", "Ran into this error: ", "AI_APICallError: ",
            "\"sessionFailure\": {", "\"threadStatus\": {\"type\": \"systemError\"", "Selected model is at capacity",
            "context canceled", "SIGKILL", "fatal: ", "level=ERROR", "the", "your", "is", "not", "has been");

    private static final List<String> NUMBERS = List.of("429", "402", "529", "500", "502", "503", "504", "401", "408",
            "400", "413", "422", " 429 ", "+429", "-1", "0", "1", "127", "", "abc", "42x", "\u0661\u0662\u0667", "99999999999999999999");

    /** Catalogue literals and words, upper-cased copies, and noise: what generated texts are made of. */
    private static final List<String> PIECES = pieces();

    private static List<String> pieces() {
        Set<String> out = new LinkedHashSet<>(NOISE);
        for (Pattern p : patterns()) {
            for (RegexPrefilter.Part part : RegexPrefilter.of(p).parts()) {
                if (part.literals() != null) {
                    out.addAll(List.of(part.literals()));
                }
                if (part.required() != null) {
                    out.add(part.required());
                }
                RequiredLiterals.of(part.pattern().pattern(), part.pattern().flags()).forEach(out::addAll);
            }
            for (String w : p.pattern().split("[^A-Za-z0-9_]+")) {
                if (w.length() > 1) {
                    out.add(w);
                }
            }
        }
        List<String> list = new ArrayList<>(out);
        list.addAll(list.stream().map(w -> w.toUpperCase(Locale.ROOT)).toList());
        return List.copyOf(list);
    }

    private static List<Pattern> patterns() {
        List<Pattern> out = new ArrayList<>();
        for (FieldMatch f : regexTests()) {
            out.addAll(f.patterns()); // each of a list as a regex of its own
        }
        return out;
    }

    /** Every regex test of the shipped catalogue: rules' conditions and their {@code unless}, markers. */
    private static List<FieldMatch> regexTests() {
        List<Rule.Condition> conditions = new ArrayList<>();
        Catalogue c = CLASSIFIER.catalogue();
        c.rules().forEach(r -> conditions.addAll(r.conditions()));
        c.backgroundMarkers().forEach(m -> conditions.add(m.condition()));
        c.surfacedShapes().forEach(m -> conditions.add(m.condition()));
        List<FieldMatch> out = new ArrayList<>();
        for (Rule.Condition cond : conditions) {
            for (FieldMatch f : new FieldMatch[] {cond.match(), cond.unless()}) {
                if (f != null && f.type() == Rule.MatchType.REGEX) {
                    out.add(f);
                }
            }
        }
        return out;
    }

    /** 1..maxPieces pieces joined, each in its own case, some letters' case flipped at random. */
    private static Gen<String> texts(int maxPieces) {
        return lists().of(Generate.pick(PIECES)).ofSizeBetween(1, maxPieces)
                .zip(integers().all(), (parts, seed) -> flipSomeCase(String.join("", parts), new Random(seed)));
    }

    private static String flipSomeCase(String s, Random r) {
        if (r.nextInt(3) != 0) {
            return s;
        }
        char[] out = s.toCharArray();
        for (int i = 0; i < out.length; i++) {
            if (r.nextInt(4) == 0) {
                out[i] = Character.isUpperCase(out[i]) ? Character.toLowerCase(out[i]) : Character.toUpperCase(out[i]);
            }
        }
        return new String(out);
    }

    /** A turn of 1..4 signals of any kind the catalogue reads, texts from {@link #texts}. */
    private static Gen<Evidence> turns(Gen<String> texts) {
        Gen<Signal> signal = integers().between(0, 7).zip(texts, texts, integers().all(), (kind, a, b, seed) -> {
            Random r = new Random(seed);
            String number = NUMBERS.get(r.nextInt(NUMBERS.size()));
            Phase phase = r.nextInt(4) == 0 ? null : Phase.values()[r.nextInt(Phase.values().length)];
            return switch (kind) {
                case 0 -> signal(r, phase, FrameSource.ACP_ERROR, SignalKind.ERROR, "code", "-32603", "message", a, "data", b);
                case 1 -> signal(r, phase, FrameSource.STDERR, SignalKind.STDERR, "line", a);
                case 2 -> signal(r, phase, FrameSource.EXIT, SignalKind.EXIT, "code", number,
                        "signal", r.nextBoolean() ? "SIGKILL" : a);
                case 3 -> signal(r, phase, FrameSource.HTTP, SignalKind.HTTP, "status", number, "body", a,
                        "header.retry-after", r.nextBoolean() ? "60" : b, "header.x-should-retry", r.nextBoolean() ? "false" : b,
                        "header.anthropic-ratelimit-unified-status", r.nextBoolean() ? "Rejected" : b,
                        "header.x-codex-primary-used-percent", r.nextBoolean() ? " 100.0 " : number,
                        "header.x-ratelimit-reset-requests", "20s", "header.x-ratelimit-remaining-requests", "0");
                case 4 -> signal(r, phase, FrameSource.ACP_UPDATE, SignalKind.UPDATE_META, "update", "session_info_update",
                        "meta", a, "text", b);
                case 5 -> signal(r, phase, FrameSource.ACP_UPDATE, SignalKind.FINAL_CHUNK, "text", a);
                case 6 -> signal(r, phase, FrameSource.LIFECYCLE, SignalKind.LIFECYCLE, "event", "turn_abandoned", "message", a);
                default -> signal(r, phase, FrameSource.ACP_RESPONSE, SignalKind.STOP, "stop_reason", "end_turn");
            };
        });
        List<String> stops = java.util.Arrays.asList(null, null, "end_turn", "max_tokens", "cancelled");
        List<String> agents = java.util.Arrays.asList(null, "opencode-acp", "opencode", "codex-acp", "claude-acp", "gemini-cli",
                "Claude-ACP", "claudette", "goose-acp", "aider", "copilot-acp", "cursor-acp", "qwen-code", "kiro-cli", "cline");
        List<String> providers = java.util.Arrays.asList(null, "anthropic", "Google");
        return lists().of(signal).ofSizeBetween(1, 4).zip(integers().all(), (signals, seed) -> {
            Random r = new Random(seed);
            List<Signal> inOrder = new ArrayList<>();
            for (int i = 0; i < signals.size(); i++) {
                Signal s = signals.get(i);
                inOrder.add(new Signal(i + 1, T0.plusSeconds(i), s.source(), s.phase(), s.kind(), s.fields()));
            }
            return new Evidence("s", 1, agents.get(r.nextInt(agents.size())), providers.get(r.nextInt(providers.size())),
                    null, r.nextInt(5) == 0, inOrder, T0.plusSeconds(signals.size()), stops.get(r.nextInt(stops.size())),
                    false, false, 0);
        });
    }

    private static Signal signal(Random r, Phase phase, FrameSource source, SignalKind kind, String... kv) {
        TreeMap<String, String> f = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            if (r.nextInt(8) != 0) { // now and then a field is missing
                f.put(kv[i], kv[i + 1]);
            }
        }
        return new Signal(1, T0, source, phase, kind, f);
    }

    private static void assertSameAnswer(Evidence e, String what) {
        Optional<Classification> expected = CLASSIFIER.classifySequentially(e);
        assertThat(CLASSIFIER.classify(e)).as(what).isEqualTo(expected);
        assertThat(CLASSIFIER.explain(e).classification()).as("explain of " + what).isEqualTo(expected);
    }

    @Test
    public void classifyAnswersAsTheSequentialEvaluationOnEveryCorpusLineAndFixture() {
        List<Line> lines = new ArrayList<>(SignatureFixtures.read("corpus/signatures.jsonl"));
        lines.addAll(SignatureFixtures.read(CatalogueFixturesTest.FIXTURES));
        int classified = 0;
        for (Line l : lines) {
            assertSameAnswer(SignatureFixtures.failedTurn(l), "failed turn of " + l.id());
            assertSameAnswer(SignatureFixtures.completedTurn(l), "completed turn of " + l.id());
            classified += CLASSIFIER.classify(SignatureFixtures.failedTurn(l)).isPresent() ? 1 : 0;
        }
        for (JsonNode seq : SignatureFixtures.readJson("corpus/sequences.jsonl")) {
            for (int g = 0; g <= 3; g++) {
                Optional<Evidence> e = SignatureFixtures.sequenceTurn(seq, g);
                if (e.isPresent()) {
                    assertSameAnswer(e.get(), "generation " + g + " of sequence " + seq.path("id").asText());
                }
            }
        }
        assertThat(lines).hasSizeGreaterThan(300);
        assertThat(classified).isGreaterThan(250);
    }

    @Test
    public void classifyAnswersAsTheSequentialEvaluationOnEveryObservedCase() {
        List<Evidence> observed = CatalogueBenchmark.observedMix(); // round 1 and the held-out cases
        for (Evidence e : observed) {
            assertSameAnswer(e, "observed turn " + e.sessionId());
            Evidence completed = new Evidence(e.sessionId(), e.promptGeneration(), e.agentType(), e.providerId(), e.modelId(),
                    e.launch(), e.signals(), e.terminalAt(), e.stopReason() == null ? "end_turn" : null, e.assistantOutputSeen(), e.toolActivitySeen(), e.droppedSignals());
            assertSameAnswer(completed, "observed turn " + e.sessionId() + " with the other ending");
        }
        assertThat(observed).hasSizeGreaterThan(600);
    }

    @Test
    public void classifyAnswersAsTheSequentialEvaluationOnGeneratedTurns() {
        qt().withFixedSeed(SEED).withExamples(4000).forAll(turns(texts(12)))
                .checkAssert(e -> assertSameAnswer(e, e.toString()));
    }

    @Test
    public void classifyAnswersAsTheSequentialEvaluationOnHundredKilobyteTurns() {
        Gen<String> big = texts(30).map(u -> u.repeat(100 * 1024 / Math.max(1, u.length()) + 1).substring(0, 100 * 1024));
        qt().withFixedSeed(SEED).withExamples(40).forAll(turns(big))
                .checkAssert(e -> assertSameAnswer(e, "a turn of 100 KB texts starting " + e.signals().get(0).fields()
                        .values().stream().map(v -> v.substring(0, Math.min(40, v.length()))).toList()));
    }

    @Test
    public void everyCatalogueRegexHoldsThroughTheIndexExactlyWhenItsFindDoes() {
        List<FieldMatch> tests = regexTests();
        RuleIndex index = CLASSIFIER.catalogue().index();
        qt().withFixedSeed(SEED).withExamples(6000).forAll(texts(14), integers().between(0, tests.size() - 1))
                .checkAssert((text, i) -> {
                    FieldMatch m = tests.get(i);
                    assertThat(index.regexHolds(m, text)).as("%s on %s", m.patterns(), text)
                            .isEqualTo(m.patterns().stream().anyMatch(p -> p.matcher(text).find()));
                });
    }

    /**
     * A catalogue of one rule whose condition is a {@code regex} (or {@code regex_ci}) list of
     * {@code group}, or — {@code split} — of one rule per regex of it (same code, priorities
     * descending): the list's disjunction written out as separate single-regex conditions.
     */
    private static Catalogue listOrSplit(List<Pattern> group, boolean split) {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode file = json.createObjectNode().put("catalogue_version", "test-errors.v1");
        com.fasterxml.jackson.databind.node.ArrayNode rules = file.putArray("rules");
        boolean ci = (group.get(0).flags() & Pattern.CASE_INSENSITIVE) != 0;
        for (int k = 0; k < (split ? group.size() : 1); k++) {
            com.fasterxml.jackson.databind.node.ObjectNode rule = rules.addObject()
                    .put("id", split ? "test.part" + k + ".v1" : "test.list.v1").put("priority", 100 - k).put("why", "w")
                    .put("code", "provider_unavailable").put("class", "transient").put("confidence", "high").put("scope", "provider");
            com.fasterxml.jackson.databind.node.ObjectNode when = rule.putArray("when").addObject();
            when.putArray("in").add("error.message").add("stderr.line").add("http.body").add("final_chunk.text")
                    .add("update_meta.text").add("lifecycle.message");
            com.fasterxml.jackson.databind.node.ArrayNode regexes = when.putArray(ci ? "regex_ci" : "regex");
            (split ? group.subList(k, k + 1) : group).forEach(p -> regexes.add(p.pattern()));
        }
        return Catalogue.parse(file.toString());
    }

    @Test
    public void aRegexListConditionDecidesExactlyAsTheDisjunctionOfItsRegexesAsSeparateConditions() {
        List<Pattern> all = patterns();
        Random r = new Random(SEED);
        List<String> texts = new ArrayList<>();
        qt().withFixedSeed(SEED).withExamples(300).forAll(texts(14)).checkAssert(texts::add);
        List<Evidence> turns = new ArrayList<>();
        qt().withFixedSeed(SEED).withExamples(300).forAll(turns(texts(12))).checkAssert(turns::add);
        int held = 0;
        int listWon = 0;
        for (int g = 0; g < 40; g++) {
            boolean ci = g % 2 == 0;
            List<Pattern> pool = all.stream().filter(p -> ((p.flags() & Pattern.CASE_INSENSITIVE) != 0) == ci).toList();
            List<Pattern> group = new ArrayList<>();
            for (int n = 2 + r.nextInt(CatalogueConditions.MAX_REGEX_PARTS - 1); group.size() < n; ) {
                Pattern p = pool.get(r.nextInt(pool.size()));
                if (group.stream().noneMatch(q -> q.pattern().equals(p.pattern()))) {
                    group.add(p);
                }
            }
            Catalogue listed = listOrSplit(group, false);
            Catalogue split = listOrSplit(group, true);
            FieldMatch list = listed.rules().get(0).conditions().get(0).match();
            List<FieldMatch> singles = split.rules().stream().map(x -> x.conditions().get(0).match()).toList();
            assertThat(list.patterns()).hasSize(group.size());
            assertThat(listed.index().stats()).as("the list's literals and alternatives are its regexes' own")
                    .isEqualTo(split.index().stats());
            for (String text : texts) {
                boolean any = false;
                for (FieldMatch single : singles) {
                    any |= split.index().regexHolds(single, text);
                }
                assertThat(listed.index().regexHolds(list, text)).as("%s on %s", group, text).isEqualTo(any);
                held += any ? 1 : 0;
                assertThat(list.test(text)).as("%s on %s", group, text).isEqualTo(any);
            }
            Classifier byList = new Classifier(listed);
            Classifier bySplit = new Classifier(split);
            for (Evidence e : turns) {
                Optional<Classification> one = byList.classify(e);
                Optional<Classification> parts = bySplit.classify(e);
                assertThat(one.isPresent()).as("%s on %s", group, e).isEqualTo(parts.isPresent());
                assertThat(one).isEqualTo(byList.classifySequentially(e));
                if (one.isPresent()) {
                    String partId = parts.get().ruleId();
                    listWon += one.get().ruleId().equals("test.list.v1") ? 1 : 0;
                    assertThat(one.get().ruleId()).as("%s on %s", group, e)
                            .isEqualTo(partId.startsWith("test.part") ? "test.list.v1" : partId);
                    assertThat(List.of(one.get().code(), one.get().confidence(), one.get().scope()))
                            .isEqualTo(List.of(parts.get().code(), parts.get().confidence(), parts.get().scope()));
                }
            }
        }
        assertThat(held).as("texts some list holds on").isGreaterThan(400);
        assertThat(listWon).as("turns a list rule classified").isGreaterThan(200);
    }

    @Test
    public void everyCatalogueRegexAlternativeIsGatedOrTriedOnlyWhereItCanStart() {
        RuleIndex index = CLASSIFIER.catalogue().index();
        List<String> slow = new ArrayList<>();
        for (RegexAlternative a : index.alternatives) {
            boolean cheap = a.trigger != null || a.starts != null || a.leading != null || a.anchored || a.minCodePoints >= 0
                    || a.tail >= 0;
            if (!cheap) {
                slow.add(a.pattern.pattern());
            }
        }
        assertThat(slow).as("regex alternatives with no required literal, no leading literal or character, no anchor and "
                + "no bounded end-anchored tail: they run at every position of every field their rule reads (give them a "
                + "literal, or a first atom LeadingChars reads)").isEmpty();
    }

    @Test
    public void anEndAnchoredAlternativeOfBoundedLengthIsTriedOnlyInItsTail() {
        assertThat(RegexAlternative.maxChars("[^}\\s]\\s{0,3}$")).as("each consuming atom counts 2 (a surrogate pair)").isEqualTo(8);
        assertThat(RegexAlternative.maxChars("(?:ab|c(?=x)d{2})?e$")).as("a lookahead is zero-width").isEqualTo(8);
        assertThat(RegexAlternative.maxChars("a+$")).isEqualTo(-1);
        assertThat(RegexAlternative.maxChars("a{2,}$")).isEqualTo(-1);
        assertThat(RegexAlternative.maxChars("(a)\\1$")).isEqualTo(-1);
        assertThat(RegexAlternative.endsWithDollar("a\\$")).isFalse();
        assertThat(RegexAlternative.endsWithDollar("a\\\\$")).isTrue();
        java.util.regex.Pattern p = java.util.regex.Pattern.compile("[^}\\s]\\s{0,3}$");
        RegexAlternative alt = new RegexAlternative(0, 0, p, List.of(), null, null, true, List.of(), -1);
        assertThat(alt.tail).isEqualTo(10);
        for (String text : List.of("", "x", "x\n", "x  \r\n", "}  ", "ab}", "ab}\n", "abc    ", "abc   \n", "\uD83D\uDE00 \n",
                "error: {\"a\":1}  \n", "a\u2028", "abc\n\n", "a long line of prose that ends in a brace }",
                "a long line of prose that ends with a word", "a long line of prose, then spaces     ")) {
            assertThat(alt.find(text, new int[0], new java.util.regex.Matcher[1])).as(text).isEqualTo(p.matcher(text).find());
        }
    }

    @Test
    public void requiredLiteralsAreReadFromRunsGroupsAndEscapes() {
        assertThat(RequiredLiterals.of("internal\\s{1,3}server\\s{1,3}error", 0))
                .containsExactly(List.of("internal"), List.of("server"), List.of("error"));
        assertThat(RequiredLiterals.of("not\\s{1,3}(?:authenticated|logged\\s{1,3}in)", Pattern.CASE_INSENSITIVE))
                .containsExactly(List.of("not"), List.of("authenticated", "logged"));
        assertThat(RequiredLiterals.of("(?:\\w{1,30}_)?Quota[\\s_]", Pattern.CASE_INSENSITIVE)).containsExactly(List.of("quota"));
        assertThat(RequiredLiterals.of("abc\\x41def\\u0041ghi\\0101jkl", 0))
                .containsExactly(List.of("abc"), List.of("def"), List.of("ghi"), List.of("jkl"));
        assertThat(RequiredLiterals.of("colou?r+s", 0)).containsExactly(List.of("colo"));
        assertThat(RequiredLiterals.of("(?:abc|de)fgh", 0)).containsExactly(List.of("fgh"));
        assertThat(RequiredLiterals.of("(?i)abcdef", 0)).isEmpty();
        assertThat(RequiredLiterals.of("xyz(?i:abcd)efg", 0)).as("a scoped flag group's literals compare otherwise")
                .containsExactly(List.of("xyz"), List.of("efg"));
        assertThat(RequiredLiterals.of("(?x:a b)cdef", 0)).as("a syntax flag").isEmpty();
        assertThat(RequiredLiterals.of("(abc)\\1", 0)).isEmpty();
    }

    @Test
    public void theLiteralSetFindsEachLiteralAtItsFirstOccurrenceWithAsciiCaseFolded() {
        LiteralSet set = new LiteralSet(List.of("error", "API", "rate_limit"), List.of(false, true, false));
        long[] present = new long[set.words()];

        int[] found = set.scan("An ERROR: api, API and Rate_Limit; error", present);

        assertThat(found).containsExactly(0, 3, 1, 15, 2, 23);
        assertThat(set.scan("\u212Arror API_ Rate_Limi", new long[set.words()])).containsExactly(1, 6);
    }
}
