package io.recourse.cli;

import io.recourse.classification.Catalogue;
import io.recourse.classification.Classifier;
import io.recourse.classification.Explanation;
import io.recourse.evidence.ClosedTurn;
import io.recourse.evidence.Evidence;
import io.recourse.evidence.Signal;
import io.recourse.evidence.TurnOutcome;
import io.recourse.taxonomy.Classification;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code recourse catalogue explain FILE|-}: reads frames like {@code classify}
 * and prints, for each closed turn (sessions in order of first appearance, each turn replayed in seq order), its outcome, its (sanitized, DESIGN §9)
 * evidence signals by {@code seq}, every rule tried in priority order — matched or not, on which
 * signal {@code seq}s, or which condition failed — and the verdict saying why the winner won.
 * Rejected lines and open turns go to standard error. Exit codes as {@link ClassifyCommand}.
 */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = {"For each closed turn of a JSONL file of frame envelopes: the rules tried "
                + "(matched or not, on which signal seqs) and why the winner won."})
public final class CatalogueExplainCommand extends OfflineCommand {

    /** Characters of a signal field shown; evidence fields are already sanitized and bounded. */
    static final int FIELD_PREVIEW = 160;
    /** Characters of a rule's trial detail shown without {@code --full} (conditions quote whole regexes). */
    static final int DETAIL_PREVIEW = 200;

    @Mixin
    FramesInput input;

    @Option(names = "--matched-only", description = "List only the rules that matched (the count of the others is still shown).")
    boolean matchedOnly;

    @Option(names = "--full", description = "Print each rule's failed condition in full (default: cut at "
            + DETAIL_PREVIEW + " characters).")
    boolean full;

    @Override
    int run(Catalogue catalogue, PrintWriter out, PrintWriter err) {
        Classifier classifier = new Classifier(catalogue);
        boolean read = input.runOffline(classifier, err, (outcome, turn) -> {
            print(out, outcome, turn, classifier.explain(turn.evidence()));
            out.flush();
        });
        return read ? 0 : 1;
    }

    private void print(PrintWriter out, TurnOutcome o, ClosedTurn turn, Explanation x) {
        Evidence e = turn.evidence();
        Classification c = o.classification();
        out.println("turn " + o.sessionId() + "/" + o.promptGeneration() + ": " + o.outcome().wire()
                + (o.launch() ? " (launch failure)" : "")
                + (e.stopReason() != null ? ", stopReason " + e.stopReason() : "")
                + (c == null ? "" : ", " + c.code().wire() + " (" + c.errorClass().wire() + ", confidence "
                        + c.confidence().wire() + ") by rule " + c.ruleId() + " [" + c.catalogueVersion() + "]"));
        out.println("  agent " + e.agentType() + ", provider " + e.providerId() + ", model " + e.modelId()
                + "; replay_safe " + o.replaySafe() + " (assistant_output_seen " + o.assistantOutputSeen()
                + ", tool_activity_seen " + o.toolActivitySeen() + ")");
        out.println("  signals (" + e.signals().size() + (e.droppedSignals() > 0 ? ", " + e.droppedSignals() + " dropped" : "") + "):");
        for (Signal s : e.signals()) {
            out.println("    seq " + s.seq() + " " + s.kind().wire() + (s.phase() == null ? "" : " [" + s.phase().wire() + "]")
                    + " " + fields(s.fields()));
        }
        long matched = x.trials().stream().filter(Explanation.Trial::matched).count();
        out.println("  rules tried: " + x.trials().size() + ", matched: " + matched
                + (matchedOnly ? " (only matches listed)" : ""));
        for (Explanation.Trial t : x.trials()) {
            if (matchedOnly && !t.matched()) {
                continue;
            }
            String mark = t.matched() ? (c != null && t.ruleId().equals(c.ruleId()) ? "WIN  " : "match") : "  -  ";
            String detail = full || t.detail().length() <= DETAIL_PREVIEW ? t.detail() : t.detail().substring(0, DETAIL_PREVIEW) + "…";
            out.println("    " + mark + " " + t.priority() + " " + t.ruleId() + ": " + detail);
        }
        out.println("  verdict: " + x.verdict());
        if (!x.evidenceSeqs().isEmpty()) {
            out.println("  winner rests on seq " + x.evidenceSeqs());
        }
        if (c != null && (c.retryAfter() != null || c.resetAt() != null)) {
            out.println("  hint: " + (c.retryAfter() != null ? "retry_after " + c.retryAfter() : "reset_at " + c.resetAt()));
        }
        out.println();
    }

    private static String fields(Map<String, String> fields) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, String> f : fields.entrySet()) {
            if (b.length() > 1) {
                b.append(", ");
            }
            String v = f.getValue() == null ? "null" : f.getValue().replace("\n", "\\n").replace("\r", "\\r");
            b.append(f.getKey()).append('=').append(v.length() > FIELD_PREVIEW ? v.substring(0, FIELD_PREVIEW) + "…" : v);
        }
        return b.append('}').toString();
    }
}
