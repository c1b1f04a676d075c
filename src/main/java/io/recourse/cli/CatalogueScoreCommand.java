package io.recourse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.classification.Catalogue;
import io.recourse.classification.Classifier;
import io.recourse.classification.OfflineAssembler;
import io.recourse.evidence.Outcome;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.TurnOutcome;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameParser;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.WireName;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code recourse catalogue score [--rules FILE] [--split dev|test|all] [--format text|json]
 * [thresholds] FILE…}: how well a rule file classifies turns whose answer is known.
 *
 * <p>Each non-blank line of each FILE is either a sequence (the corpus {@code sequences.jsonl}
 * shape: {@code name}, {@code frames}, {@code expected {outcome, code, class}}) or an observed case
 * (the {@code corpus/observed} case format, {@link ObservedCase}), which
 * {@link ObservedCaseRenderer} renders into its frames. {@code --split} keeps the cases of one
 * split (default {@code all}); sequences carry no split and are always scored. Every item's
 * frames go through the same offline path as {@code classify} — the {@link FrameParser} (via
 * {@link FrameLines}), a fresh {@link OfflineAssembler} replaying them in {@link OfflineRun} order,
 * and the {@link Classifier} of the rules. An item got {@code failed} (and its classification) when
 * one of its turns failed, else the outcome of its last closed turn, else no outcome — except an
 * item of generation-0 frames only (a {@code session/load} replay without a turn), which has nothing
 * to fail and counts as {@code completed} (the corpus rule: no failed outcome, no classification).
 *
 * <p>Prints the figures of {@link CatalogueScore} (cases, failing turns, exact-code,
 * policy-equivalent and class accuracy, unsafe, silent, no outcome, negatives kept, the confusion
 * table by code and every mismatch with truth, got and rule id), then each threshold given and
 * whether it held. Figures and their order depend only on the input and the rules.
 *
 * <p>Exit codes: 0 when every line was read and every threshold held; 1 when a threshold failed
 * (each failure is printed), a line is unreadable (printed on standard error with file, line and
 * field; the other lines are still scored), a FILE or the rule file cannot be read, or the rule
 * file is invalid; 2 for usage errors. A minimum on an accuracy with nothing to measure (no
 * failing turns, no negatives) fails.
 */
@Command(name = "score", mixinStandardHelpOptions = true,
        description = {"Score a rule file on turns with known answers: sequences (name, frames, expected) "
                + "or observed cases (rendered into frames).",
                "Prints exact-code, policy-equivalent and class accuracy, unsafe, silent, negatives kept, "
                        + "the confusion table and the mismatches; exit 1 when a threshold fails."})
public final class CatalogueScoreCommand extends OfflineCommand {

    /** Which cases {@code --split} keeps. */
    enum Split { dev, test, all }

    /** Output format. */
    enum Format { text, json }

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    @Parameters(arity = "1..*", paramLabel = "FILE",
            description = "JSONL of sequences (corpus sequences.jsonl shape) and/or observed cases (corpus/observed format).")
    List<Path> files;

    @Option(names = "--split", paramLabel = "dev|test|all", description = "Cases of this split only (default: ${DEFAULT-VALUE}); sequences are always scored.")
    Split split = Split.all;

    @Option(names = "--format", paramLabel = "text|json", description = "Output format (default: ${DEFAULT-VALUE}).")
    Format format = Format.text;

    @Option(names = "--min-exact", paramLabel = "RATE", description = "Fail below this exact-code accuracy (0..1).")
    Double minExact;

    @Option(names = "--min-policy", paramLabel = "RATE", description = "Fail below this policy-equivalent accuracy (0..1).")
    Double minPolicy;

    @Option(names = "--min-class", paramLabel = "RATE", description = "Fail below this class accuracy (0..1).")
    Double minClass;

    @Option(names = "--max-unsafe", paramLabel = "N", description = "Fail above this many unsafe items.")
    Integer maxUnsafe;

    @Option(names = "--max-silent", paramLabel = "N", description = "Fail above this many silent failing turns.")
    Integer maxSilent;

    @Option(names = "--min-negatives-kept", paramLabel = "RATE", description = "Fail below this share of negatives kept (0..1).")
    Double minNegativesKept;

    /** One threshold and whether it held. */
    record Threshold(String name, String limit, String value, boolean ok) {
    }

    @Override
    int run(Catalogue catalogue, PrintWriter out, PrintWriter err) {
        for (Object[] rate : new Object[][] {{"--min-exact", minExact}, {"--min-policy", minPolicy},
                {"--min-class", minClass}, {"--min-negatives-kept", minNegativesKept}}) {
            Double v = (Double) rate[1];
            if (v != null && !(v >= 0 && v <= 1)) {
                throw new CommandLine.ParameterException(spec.commandLine(), rate[0] + " must be between 0 and 1, not " + v);
            }
        }
        for (Object[] count : new Object[][] {{"--max-unsafe", maxUnsafe}, {"--max-silent", maxSilent}}) {
            Integer v = (Integer) count[1];
            if (v != null && v < 0) {
                throw new CommandLine.ParameterException(spec.commandLine(), count[0] + " must be 0 or more, not " + v);
            }
        }
        Classifier classifier = new Classifier(catalogue);
        FrameLines frameLines = new FrameLines(new FrameParser(), true);
        List<CatalogueScore.Item> items = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        int skippedBySplit = 0;
        for (Path file : files) {
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                skippedBySplit += read(file.toString(), in, classifier, frameLines, ids, items, problems);
            } catch (IOException e) {
                err.println("cannot read " + file + ": " + FramesInput.why(e));
                err.flush();
                return 1;
            }
        }
        problems.forEach(err::println);
        CatalogueScore.Report report = CatalogueScore.score(items);
        List<Threshold> thresholds = thresholds(report);
        boolean ok = problems.isEmpty() && thresholds.stream().allMatch(Threshold::ok);
        if (format == Format.json) {
            out.println(json(catalogue, report, thresholds, problems.size(), skippedBySplit, ok));
        } else {
            text(out, catalogue, report, thresholds, problems.size(), skippedBySplit);
        }
        out.flush();
        err.flush();
        return ok ? 0 : 1;
    }

    /** Reads one file into items; returns the number of cases left out by {@code --split}. */
    private int read(String name, BufferedReader in, Classifier classifier, FrameLines frameLines, Set<String> ids,
                     List<CatalogueScore.Item> items, List<String> problems) throws IOException {
        int skipped = 0;
        long lineNo = 0;
        String line;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            String where = name + " line " + lineNo;
            JsonNode tree;
            try {
                tree = JSON.readTree(line);
            } catch (IOException e) {
                problems.add(where + ": not valid JSON");
                continue;
            }
            String id;
            String itemSplit = null;
            JsonNode sequence;
            CatalogueScore.Truth truth;
            try {
                if (tree != null && tree.isObject() && tree.has("frames")) {
                    id = textField(tree, "name");
                    truth = sequenceTruth(tree.get("expected"));
                    if (!tree.get("frames").isArray()) {
                        throw new ObservedCase.CaseException("frames", "must be an array of envelopes");
                    }
                    sequence = tree;
                } else {
                    ObservedCase c = ObservedCase.parse(tree);
                    id = c.id();
                    itemSplit = c.split();
                    if (split != Split.all && !split.name().equals(c.split())) {
                        skipped++;
                        continue;
                    }
                    truth = new CatalogueScore.Truth(c.negative() ? Outcome.COMPLETED : Outcome.FAILED, c.expected());
                    sequence = ObservedCaseRenderer.sequence(c);
                }
            } catch (ObservedCase.CaseException e) {
                String known = tree != null && tree.path("id").isTextual() ? " (" + tree.get("id").asText() + ")" : "";
                problems.add(where + known + ": " + e.getMessage());
                continue;
            }
            if (!ids.add(id)) {
                problems.add(where + " (" + id + "): duplicate id");
                continue;
            }
            List<Frame> frames = new ArrayList<>();
            List<String> rejected = new ArrayList<>();
            frameLines.sequence(sequence, lineNo, new FrameLines.Sink() {
                @Override
                public void frame(Frame frame) {
                    frames.add(frame);
                }

                @Override
                public void rejected(FrameLines.Rejection r) {
                    rejected.add(name + " " + r + " (" + id + ")");
                }
            });
            if (!rejected.isEmpty()) {
                problems.addAll(rejected);
                continue;
            }
            items.add(new CatalogueScore.Item(id, itemSplit, truth, got(classifier, frames)));
        }
        return skipped;
    }

    /** Replays one item's frames through a fresh assembler: failed if a turn failed, else the last outcome. */
    static CatalogueScore.Got got(Classifier classifier, List<Frame> frames) {
        OfflineAssembler assembler = new OfflineAssembler(classifier);
        TurnOutcome failed = null;
        TurnOutcome last = null;
        for (Frame f : OfflineRun.replayOrder(frames)) {
            for (SessionEvent e : assembler.accept(f, f.occurredAt())) {
                if (e instanceof TurnOutcome o) {
                    last = o;
                    if (failed == null && o.outcome() == Outcome.FAILED) {
                        failed = o;
                    }
                }
            }
        }
        TurnOutcome o = failed != null ? failed : last;
        if (o == null) {
            boolean setupOnly = frames.stream().allMatch(f -> f.promptGeneration() == 0);
            return new CatalogueScore.Got(setupOnly ? Outcome.COMPLETED : null, null, null, null);
        }
        Classification c = o.classification();
        return c == null ? new CatalogueScore.Got(o.outcome(), null, null, null)
                : new CatalogueScore.Got(o.outcome(), c.code(), c.confidence(), c.ruleId());
    }

    private static String textField(JsonNode tree, String field) {
        JsonNode v = tree.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new ObservedCase.CaseException(field, "missing (a sequence needs name, frames and expected)");
        }
        return v.asText();
    }

    private static CatalogueScore.Truth sequenceTruth(JsonNode exp) {
        if (exp == null || !exp.isObject()) {
            throw new ObservedCase.CaseException("expected", "missing (a sequence needs name, frames and expected)");
        }
        Outcome outcome;
        try {
            outcome = WireName.parse(Outcome.class, exp.path("outcome").asText());
        } catch (IllegalArgumentException e) {
            throw new ObservedCase.CaseException("expected.outcome", "must be completed, cancelled or failed");
        }
        JsonNode code = exp.get("code");
        if (outcome != Outcome.FAILED) {
            if (code != null && !code.isNull()) {
                throw new ObservedCase.CaseException("expected.code", "must be null when the outcome is " + outcome.wire());
            }
            return new CatalogueScore.Truth(outcome, null);
        }
        Code c;
        try {
            c = Code.fromWire(code == null ? "" : code.asText());
        } catch (IllegalArgumentException e) {
            throw new ObservedCase.CaseException("expected.code", "a failed sequence needs a DESIGN §5.1 code");
        }
        JsonNode cls = exp.get("class");
        if (cls != null && cls.isTextual() && !cls.asText().equals(c.errorClass().wire())) {
            throw new ObservedCase.CaseException("expected.class", "'" + cls.asText() + "' is not the class of " + c.wire());
        }
        return new CatalogueScore.Truth(outcome, c);
    }

    private List<Threshold> thresholds(CatalogueScore.Report r) {
        List<Threshold> t = new ArrayList<>();
        min(t, "min-exact", minExact, r.exact());
        min(t, "min-policy", minPolicy, r.policy());
        min(t, "min-class", minClass, r.errorClass());
        max(t, "max-unsafe", maxUnsafe, r.unsafe());
        max(t, "max-silent", maxSilent, r.silent());
        min(t, "min-negatives-kept", minNegativesKept, r.negativesKept());
        return t;
    }

    private static void min(List<Threshold> out, String name, Double limit, CatalogueScore.Ratio value) {
        if (limit != null) {
            out.add(new Threshold(name, rate(limit), value.toString(), value.of() > 0 && value.rate() >= limit));
        }
    }

    private static void max(List<Threshold> out, String name, Integer limit, int value) {
        if (limit != null) {
            out.add(new Threshold(name, Integer.toString(limit), Integer.toString(value), value <= limit));
        }
    }

    private static String rate(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }

    private void text(PrintWriter out, Catalogue catalogue, CatalogueScore.Report r, List<Threshold> thresholds,
                      int problems, int skippedBySplit) {
        out.println("rules: " + rules.source() + " — " + catalogue.version() + ", " + catalogue.rules().size() + " rules");
        out.println("split: " + split + (skippedBySplit > 0 ? " (" + skippedBySplit + " cases of the other split left out)" : "")
                + (problems > 0 ? "; " + problems + " unreadable lines skipped" : ""));
        out.println("cases: " + r.cases());
        out.println("failing turns: " + r.failing());
        out.println("exact-code accuracy: " + r.exact());
        out.println("policy-equivalent accuracy: " + r.policy());
        out.println("class accuracy: " + r.errorClass());
        out.println("unsafe: " + r.unsafe());
        out.println("silent: " + r.silent());
        out.println("no outcome: " + r.noOutcome());
        out.println("negatives kept: " + r.negativesKept());
        out.println("confusion (truth × got, non-zero cells):");
        int tw = "truth".length();
        int gw = "got".length();
        int nw = 1;
        for (CatalogueScore.Cell c : r.confusion()) {
            tw = Math.max(tw, c.truth().length());
            gw = Math.max(gw, c.got().length());
            nw = Math.max(nw, Integer.toString(c.n()).length());
        }
        String row = "  %-" + tw + "s  %-" + gw + "s  %" + nw + "s%s";
        out.println(String.format(Locale.ROOT, row, "truth", "got", "n", "").stripTrailing());
        for (CatalogueScore.Cell c : r.confusion()) {
            out.println(String.format(Locale.ROOT, row, c.truth(), c.got(), c.n(),
                    c.truth().equals(c.got()) ? "" : "  ✗"));
        }
        out.println("mismatches: " + r.mismatches().size());
        for (CatalogueScore.Item i : r.mismatches()) {
            out.println("  " + i.id() + ": truth " + i.truth().label() + ", got " + i.got().label()
                    + (i.got().ruleId() == null ? "" : " by " + i.got().ruleId() + " (" + i.got().confidence().wire() + ")")
                    + (i.unsafe() ? " UNSAFE" : ""));
        }
        for (Threshold t : thresholds) {
            out.println("threshold " + t.name() + " " + t.limit() + ": " + (t.ok() ? "ok" : "FAILED") + " (" + t.value() + ")");
        }
    }

    private String json(Catalogue catalogue, CatalogueScore.Report r, List<Threshold> thresholds, int problems,
                        int skippedBySplit, boolean ok) {
        ObjectNode n = JSON.createObjectNode();
        n.put("rules", rules.source());
        n.put("catalogue_version", catalogue.version());
        n.put("split", split.name());
        n.put("left_out_by_split", skippedBySplit);
        n.put("unreadable_lines", problems);
        n.put("cases", r.cases());
        n.put("failing_turns", r.failing());
        ratio(n, "exact", r.exact());
        ratio(n, "policy", r.policy());
        ratio(n, "class", r.errorClass());
        n.put("unsafe", r.unsafe());
        n.put("silent", r.silent());
        n.put("no_outcome", r.noOutcome());
        ratio(n, "negatives_kept", r.negativesKept());
        ArrayNode confusion = n.putArray("confusion");
        for (CatalogueScore.Cell c : r.confusion()) {
            confusion.addObject().put("truth", c.truth()).put("got", c.got()).put("n", c.n());
        }
        ArrayNode mismatches = n.putArray("mismatches");
        for (CatalogueScore.Item i : r.mismatches()) {
            mismatches.addObject().put("id", i.id()).put("split", i.split()).put("truth", i.truth().label())
                    .put("got", i.got().label()).put("rule_id", i.got().ruleId())
                    .put("confidence", i.got().confidence() == null ? null : i.got().confidence().wire())
                    .put("unsafe", i.unsafe());
        }
        ArrayNode t = n.putArray("thresholds");
        for (Threshold th : thresholds) {
            t.addObject().put("name", th.name()).put("limit", th.limit()).put("value", th.value()).put("ok", th.ok());
        }
        n.put("ok", ok);
        return n.toString();
    }

    private static void ratio(ObjectNode n, String name, CatalogueScore.Ratio r) {
        ObjectNode o = n.putObject(name);
        o.put("count", r.count()).put("of", r.of());
        if (r.of() == 0) {
            o.putNull("rate");
        } else {
            o.put("rate", Math.round(r.rate() * 10000) / 10000.0);
        }
    }
}
