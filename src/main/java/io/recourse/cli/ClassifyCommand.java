package io.recourse.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.classification.CatalogueException;
import io.recourse.classification.Classification;
import io.recourse.classification.Classifier;
import io.recourse.evidence.TurnOutcome;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code recourse classify FILE|-}: the offline pipeline (DESIGN §§3–5) over a JSONL file of frame
 * envelopes of any number of sessions and turns in any arrival order, without a broker.
 *
 * <p>Prints one JSON object per closed turn (generation ≥ 1), in closing order: {@code session_id},
 * {@code prompt_generation}, {@code outcome}, {@code launch}, {@code code}, {@code class},
 * {@code confidence}, {@code rule_id}, {@code catalogue_version}, {@code scope},
 * {@code replay_safe}, {@code assistant_output_seen}, {@code tool_activity_seen},
 * {@code retry_after}, {@code reset_at} (RFC 3339 UTC instants or {@code null}; the classification
 * fields are {@code null} for completed and cancelled turns). Rejected lines, a summary and the
 * turns still open at the end go to standard error.
 *
 * <p>Exit codes: 0 when the input was read (whatever it held), 1 when it or the rule file cannot be
 * read or the rule file is invalid, 2 for usage errors.
 */
@Command(name = "classify", mixinStandardHelpOptions = true,
        description = {"Classify every closed turn of a JSONL file of frame envelopes (offline, no broker).",
                "Prints one JSON object per closed turn; rejected lines (line number, DLQ reason) and open turns go to stderr."})
public final class ClassifyCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    FramesInput input;

    @Mixin
    RulesOption rules;

    @Option(names = "--pretty", description = "Indent each JSON object over several lines.")
    boolean pretty;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Classifier classifier = loadClassifier(rules, err);
        if (classifier == null) {
            return 1;
        }
        ObjectWriter writer = pretty ? JSON.writerWithDefaultPrettyPrinter() : JSON.writer();
        try (BufferedReader in = input.open()) {
            new OfflineRun(classifier, input.corpus, err).run(in, input.name(), (outcome, turn) -> {
                out.println(writer.writeValueAsString(json(outcome)));
                out.flush();
            });
        } catch (IOException e) {
            err.println("cannot read " + input.name() + ": " + FramesInput.why(e));
            return 1;
        }
        return 0;
    }

    /** The classifier of {@code --rules} (or the shipped catalogue); {@code null} after printing why it failed. */
    static Classifier loadClassifier(RulesOption rules, PrintWriter err) {
        try {
            return new Classifier(rules.load());
        } catch (IOException e) {
            err.println("cannot read rule file " + rules.source() + ": " + FramesInput.why(e));
        } catch (CatalogueException e) {
            err.println("invalid rule file " + rules.source() + ": " + e.getMessage());
        }
        return null;
    }

    /** One output object; field order as documented on the class. */
    static ObjectNode json(TurnOutcome o) {
        Classification c = o.classification();
        ObjectNode n = JSON.createObjectNode();
        n.put("session_id", o.sessionId());
        n.put("prompt_generation", o.promptGeneration());
        n.put("outcome", o.outcome().wire());
        n.put("launch", o.launch());
        n.put("code", c == null ? null : c.code().wire());
        n.put("class", c == null ? null : c.errorClass().wire());
        n.put("confidence", c == null ? null : c.confidence().wire());
        n.put("rule_id", c == null ? null : c.ruleId());
        n.put("catalogue_version", c == null ? null : c.catalogueVersion());
        n.put("scope", c == null ? null : c.scope().wire());
        n.put("replay_safe", o.replaySafe());
        n.put("assistant_output_seen", o.assistantOutputSeen());
        n.put("tool_activity_seen", o.toolActivitySeen());
        n.put("retry_after", instant(c == null ? null : c.retryAfter()));
        n.put("reset_at", instant(c == null ? null : c.resetAt()));
        return n;
    }

    /** RFC 3339 in UTC ({@code Instant.toString()}: {@code 2026-06-01T12:00:20Z}), or {@code null}. */
    private static String instant(Instant i) {
        return i == null ? null : i.toString();
    }
}
