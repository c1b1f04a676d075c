package io.recourse.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.recourse.classification.Catalogue;
import io.recourse.classification.CatalogueCheck;
import io.recourse.classification.Classifier;
import io.recourse.classification.OfflineAssembler;
import io.recourse.evidence.ClosedTurn;
import io.recourse.ingress.Frame;
import io.recourse.ingress.FrameRejectedException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code recourse catalogue check [--rules FILE] [--fixtures FILE]…}: validates a
 * rule file (load errors name the rule) and runs signature fixtures through it — each fixture line
 * as one whole turn through the real frame parser, evidence assembler and classifier
 * ({@link SignatureFixture}) — printing per-rule hit counts (priority order, fallbacks last) and
 * every mismatch.
 *
 * <p>Fixtures default to the shipped {@value #DEFAULT_FIXTURES}; {@code --fixtures} may be given
 * several times (e.g. the corpus {@code signatures.jsonl}). Exit 0 when no fixture mismatches, 1 on
 * a mismatch, an invalid rule file, or an unreadable or malformed fixture file; 2 for usage errors.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Validate a rule file and run signature fixtures through it.",
                "Prints per-rule hit counts and every mismatch; exit 0 when nothing mismatches."})
public final class CatalogueCheckCommand extends OfflineCommand {

    /** Classpath location of the shipped fixtures (signature-line format). */
    public static final String DEFAULT_FIXTURES = "catalogue/fixtures.v2.jsonl";

    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--fixtures", paramLabel = "FILE",
            description = "Signature-format fixture file (repeatable); default: the shipped " + DEFAULT_FIXTURES + ".")
    List<Path> fixtureFiles = new ArrayList<>();
    @Override
    int run(Catalogue catalogue, PrintWriter out, PrintWriter err) {
        out.println("rules: " + rules.source() + " — " + catalogue.version() + ", " + catalogue.rules().size()
                + " rules, valid");

        Classifier classifier = new Classifier(catalogue);
        List<CatalogueCheck.Fixture> fixtures = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        if (fixtureFiles.isEmpty()) {
            try (InputStream in = CatalogueCheckCommand.class.getClassLoader().getResourceAsStream(DEFAULT_FIXTURES)) {
                if (in == null) {
                    err.println("missing classpath resource " + DEFAULT_FIXTURES);
                    return 1;
                }
                read("classpath:" + DEFAULT_FIXTURES, new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)),
                        classifier, fixtures, problems);
            } catch (IOException e) {
                err.println("cannot read classpath:" + DEFAULT_FIXTURES + ": " + FramesInput.why(e));
                return 1;
            }
        }
        for (Path file : fixtureFiles) {
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                read(file.toString(), in, classifier, fixtures, problems);
            } catch (IOException e) {
                err.println("cannot read fixture file " + file + ": " + FramesInput.why(e));
                return 1;
            }
        }
        problems.forEach(err::println);

        CatalogueCheck.Report report = CatalogueCheck.run(catalogue, fixtures);
        out.println("fixtures: " + report.fixtures() + (problems.isEmpty() ? "" : " (" + problems.size() + " unreadable lines skipped)"));
        out.println("hits per rule (priority order, fallbacks last):");
        int width = 1;
        for (Integer n : report.hitsPerRule().values()) {
            width = Math.max(width, Integer.toString(n).length());
        }
        for (Map.Entry<String, Integer> e : report.hitsPerRule().entrySet()) {
            out.println(String.format("  %" + width + "d  %s", e.getValue(), e.getKey()));
        }
        long unused = report.hitsPerRule().values().stream().filter(n -> n == 0).count();
        out.println("rules without a hit: " + unused);
        out.println("mismatches: " + report.mismatches().size());
        for (CatalogueCheck.Mismatch m : report.mismatches()) {
            out.println("  MISMATCH " + m);
        }
        out.flush();
        err.flush();
        return report.ok() && problems.isEmpty() ? 0 : 1;
    }

    /** Reads one fixture file: each line through the real pipeline to its evidence. */
    private static void read(String name, BufferedReader in, Classifier classifier, List<CatalogueCheck.Fixture> out,
                             List<String> problems) throws IOException {
        String line;
        long lineNo = 0;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            String where = name + " line " + lineNo;
            SignatureFixture fixture;
            try {
                fixture = SignatureFixture.parse(JSON.readTree(line));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                problems.add(where + ": not valid JSON");
                continue;
            } catch (IllegalArgumentException e) {
                problems.add(where + ": " + e.getMessage());
                continue;
            }
            try {
                OfflineAssembler assembler = new OfflineAssembler(classifier);
                for (Frame f : fixture.frames()) {
                    assembler.accept(f, f.occurredAt());
                }
                ClosedTurn turn = assembler.closedTurns().get(fixture.turnKey());
                if (turn == null) {
                    problems.add(where + " (" + fixture.id() + "): the fixture's turn did not close");
                    continue;
                }
                out.add(new CatalogueCheck.Fixture(fixture.id(), turn.evidence(), fixture.expected(), fixture.ruleId()));
            } catch (FrameRejectedException e) {
                problems.add(where + " (" + fixture.id() + "): " + e.reason().wire() + ": " + e.getMessage());
            }
        }
    }
}
