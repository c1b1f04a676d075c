package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.taxonomy.Code;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every line of every {@code corpus/observed/{cases,holdout,round3,round4,round5,round6,round7,round8,round9,round10}-*.jsonl} present (none is fine): it parses
 * ({@link ObservedCase#parse}, strict), ids are unique over all files, {@code split} is the README's
 * rule (test iff the first 8 hex digits of SHA-256({@code source_report}) ≡ 0 mod 3),
 * {@code expected.class} is the DESIGN §5.1 class of {@code expected.code}, negatives have a null
 * code, and every case renders into frames the {@link FrameParser} accepts. Each check lists every
 * line at fault (file, line, id, why), not only the first.
 */
public class ObservedCorpusTest {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /** One non-blank line of a case file. */
    public record Line(String file, int number, String text) {
        String where() {
            return file + " line " + number;
        }
    }

    private static final List<Line> LINES = new ArrayList<>();

    @BeforeAll
    public static void readEveryCaseFile() throws IOException, URISyntaxException {
        URL url = ObservedCorpusTest.class.getClassLoader().getResource("corpus/observed");
        assertThat(url).as("the corpus/observed folder (its README at least)").isNotNull();
        try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches("(cases|holdout|round3|round4|round5|round6|round7|round8|round9|round10)-.*\\.jsonl")).sorted().toList()) {
                List<String> text = Files.readAllLines(f, StandardCharsets.UTF_8);
                for (int i = 0; i < text.size(); i++) {
                    if (!text.get(i).isBlank()) {
                        LINES.add(new Line(f.getFileName().toString(), i + 1, text.get(i)));
                    }
                }
            }
        }
        System.out.println("observed corpus: " + LINES.size() + " case lines");
    }

    private static JsonNode tree(Line l) {
        try {
            return JSON.readTree(l.text());
        } catch (IOException e) {
            return null;
        }
    }

    @Test
    public void everyLineParses() {
        List<String> problems = new ArrayList<>();
        for (Line l : LINES) {
            JsonNode n = tree(l);
            if (n == null) {
                problems.add(l.where() + ": not valid JSON");
                continue;
            }
            try {
                ObservedCase.parse(n);
            } catch (ObservedCase.CaseException e) {
                problems.add(l.where() + " (" + n.path("id").asText("?") + "): " + e.getMessage());
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    public void idsAreUniqueOverAllFiles() {
        Map<String, String> seen = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (Line l : LINES) {
            JsonNode n = tree(l);
            String id = n == null ? null : n.path("id").asText(null);
            if (id != null && seen.putIfAbsent(id, l.where()) != null) {
                problems.add(l.where() + ": id " + id + " already at " + seen.get(id));
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    public void theSplitIsTheReadmesRule() {
        List<String> problems = new ArrayList<>();
        for (Line l : LINES) {
            JsonNode n = tree(l);
            if (n == null || !n.path("source_report").isTextual()) {
                continue; // everyLineParses names it
            }
            String hex = ObservedCaseRendererTest.sha256Hex(n.get("source_report").asText()).substring(0, 8);
            boolean holdout = l.file().startsWith("holdout-");
            if (holdout != n.path("holdout").asBoolean(false)) {
                problems.add(l.where() + " (" + n.path("id").asText("?") + "): holdout is true exactly in holdout-*.jsonl");
            }
            String rule = holdout ? "test" : Long.parseLong(hex, 16) % 3 == 0 ? "test" : "dev";
            if (!rule.equals(n.path("split").asText(null))) {
                problems.add(l.where() + " (" + n.path("id").asText("?") + "): split " + n.path("split") + ", the rule says " + rule);
            }
        }
        assertThat(problems).isEmpty();
    }

    /** The round a case file belongs to: {@code cases-} 1, {@code holdout-} 2, {@code roundN-} N. */
    static int round(String file) {
        if (file.startsWith("cases-")) {
            return 1;
        }
        if (file.startsWith("holdout-")) {
            return 2;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("round(\\d{1,2})-.*").matcher(file);
        assertThat(m.matches()).as("%s names its round", file).isTrue();
        return Integer.parseInt(m.group(1));
    }

    /** The held-out set (round 2) and rounds 3 on come from reports no earlier round uses (README, "Files"). */
    @ParameterizedTest(name = "round {0}")
    @ValueSource(ints = {2, 3, 4, 5, 6, 7})
    void aRoundsCaseComesFromAReportNoEarlierRoundUses(int round) {
        java.util.Set<String> earlier = new java.util.HashSet<>();
        for (Line l : LINES) {
            JsonNode n = tree(l);
            if (n != null && round(l.file()) < round) {
                earlier.add(n.path("source_report").asText());
            }
        }
        List<String> problems = new ArrayList<>();
        for (Line l : LINES) {
            JsonNode n = tree(l);
            if (n != null && round(l.file()) == round && earlier.contains(n.path("source_report").asText())) {
                problems.add(l.where() + " (" + n.path("id").asText("?") + "): report " + n.path("source_report").asText()
                        + " is already in an earlier round");
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    public void expectedClassIsTheClassOfTheCodeAndNegativesHaveNone() {
        List<String> problems = new ArrayList<>();
        for (Line l : LINES) {
            JsonNode n = tree(l);
            if (n == null) {
                continue;
            }
            JsonNode code = n.path("expected").path("code");
            JsonNode cls = n.path("expected").path("class");
            String where = l.where() + " (" + n.path("id").asText("?") + ")";
            if ("negative".equals(n.path("kind").asText())) {
                if (!code.isNull() || !cls.isNull()) {
                    problems.add(where + ": a negative has expected {null, null}");
                }
                continue;
            }
            try {
                Code c = Code.fromWire(code.asText());
                if (!c.errorClass().wire().equals(cls.asText())) {
                    problems.add(where + ": class " + cls + " but " + c.wire() + " is " + c.errorClass().wire());
                }
            } catch (IllegalArgumentException e) {
                problems.add(where + ": code " + code + " is not a DESIGN §5.1 code");
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    public void everyCaseRendersIntoFramesTheParserAccepts() throws IOException {
        FrameLines frames = new FrameLines(new FrameParser(), true);
        List<String> problems = new ArrayList<>();
        int rendered = 0;
        for (Line l : LINES) {
            JsonNode n = tree(l);
            ObservedCase c;
            try {
                c = ObservedCase.parse(n);
            } catch (RuntimeException e) {
                continue; // everyLineParses names it
            }
            List<Frame> accepted = new ArrayList<>();
            JsonNode sequence = ObservedCaseRenderer.sequence(c);
            frames.sequence(sequence, l.number(), new FrameLines.Sink() {
                @Override
                public void frame(Frame frame) {
                    accepted.add(frame);
                }

                @Override
                public void rejected(FrameLines.Rejection r) {
                    problems.add(l.file() + " " + r + " (" + c.id() + ")");
                }
            });
            if (accepted.size() == sequence.get("frames").size()) {
                rendered++;
            }
            assertThat(accepted).as(c.id()).anySatisfy(f -> assertThat(f.promptGeneration()).isEqualTo(1));
        }
        assertThat(problems).isEmpty();
        System.out.println("observed corpus: " + rendered + " cases rendered");
    }
}
