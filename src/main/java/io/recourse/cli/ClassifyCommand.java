package io.recourse.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.classification.Catalogue;
import io.recourse.classification.Classifier;
import io.recourse.evidence.TurnOutcome;
import io.recourse.taxonomy.Classification;
import java.io.PrintWriter;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code recourse classify FILE|-}: the offline pipeline (DESIGN §§3–5) over a JSONL file of frame
 * envelopes of any number of sessions and turns in any arrival order, without a broker.
 *
 * <p>Prints one JSON object per closed turn (generation ≥ 1), sessions in order of first appearance, then by generation (each turn is replayed in {@code seq} order, so the answer does not depend on line order): {@code session_id},
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
public final class ClassifyCommand extends OfflineCommand {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    FramesInput input;

    @Option(names = "--pretty", description = "Indent each JSON object over several lines.")
    boolean pretty;

    @Override
    int run(Catalogue catalogue, PrintWriter out, PrintWriter err) {
        Classifier classifier = new Classifier(catalogue);
        ObjectWriter writer = pretty ? JSON.writerWithDefaultPrettyPrinter() : JSON.writer();
        boolean read = input.runOffline(classifier, err, (outcome, turn) -> {
            out.println(writer.writeValueAsString(json(outcome)));
            out.flush();
        });
        return read ? 0 : 1;
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
