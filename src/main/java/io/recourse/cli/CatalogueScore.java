package io.recourse.cli;

import io.recourse.evidence.Outcome;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.ErrorClass;
import io.recourse.taxonomy.Handling;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The arithmetic of {@code recourse catalogue score}: scored items (truth and what the offline
 * pipeline gave) → the figures. Pure and deterministic; {@link CatalogueScoreCommand} reads the
 * input and classifies it.
 *
 * <p>Figures (each over the items given):
 * <ul>
 *   <li><b>failing turns</b>: items whose truth outcome is {@code failed};</li>
 *   <li><b>exact-code accuracy</b>: failing turns that got {@code failed} with the truth's code, of
 *       the failing turns;</li>
 *   <li><b>policy-equivalent accuracy</b>: failing turns whose code got is in the truth's
 *       {@link PolicyGroup} (codes the owners treat alike), of the failing turns;</li>
 *   <li><b>class accuracy</b>: failing turns that got a code of the truth's DESIGN §5.1 class;</li>
 *   <li><b>unsafe</b>: items classified {@code transient} with {@code high} confidence — an
 *       automatic retry — whose truth is not a transient failure (a hard, outside or unclassified
 *       code, or no failure at all);</li>
 *   <li><b>silent</b>: failing turns reported {@code completed};</li>
 *   <li><b>no outcome</b>: items whose turn never closed;</li>
 *   <li><b>negatives kept</b>: items whose truth is not a failure ({@code completed} look-alikes,
 *       {@code cancelled} turns) that got the truth's outcome, of those items;</li>
 *   <li><b>confusion</b>: truth label × got label, non-zero cells only; a label is the code of a
 *       failed turn, else {@code (completed)}, {@code (cancelled)} or {@code (no outcome)};</li>
 *   <li><b>mismatches</b>: items whose got label differs from the truth label, in input order.</li>
 * </ul>
 * An accuracy over zero items is {@code NaN} (shown as {@code n/a}).
 */
public final class CatalogueScore {

    /**
     * Codes the owners treat alike (DESIGN §§5.1, 6, 7; one group per {@link Handling}, the
     * unclassified and outside handlings merged), so that a code confused inside one group
     * changes no decision: short transient provider trouble (retried with backoff, health
     * recorded), throttles (retried on their hint), a lost agent transport (restart the agent),
     * quota (park until the reset), hard stops (no retry: the user must act), and everything no
     * owner acts on (outside codes and the unclassified fallbacks).
     */
    enum PolicyGroup {
        PROVIDER_TRANSIENT, RATE_LIMITED, TRANSPORT_LOST, QUOTA, HARD_STOP, NO_POLICY;

        static PolicyGroup of(Code code) {
            return switch (code.handling()) {
                case PROVIDER_TRANSIENT -> PROVIDER_TRANSIENT;
                case THROTTLE -> RATE_LIMITED;
                case TRANSPORT_LOST -> TRANSPORT_LOST;
                case RENEWABLE_QUOTA -> QUOTA;
                case USER_ACTION -> HARD_STOP;
                case NOT_PROVIDER_FAILURE, UNCLASSIFIED_PRE_START, UNCLASSIFIED_POST_START -> NO_POLICY;
            };
        }
    }

    /**
     * What one item should get.
     *
     * @param outcome {@code failed}, {@code completed} or {@code cancelled}
     * @param code    the code of a failed truth, {@code null} otherwise
     */
    record Truth(Outcome outcome, Code code) {
        String label() {
            return outcome == Outcome.FAILED ? code.wire() : "(" + outcome.wire() + ")";
        }
    }

    /**
     * What one item got.
     *
     * @param outcome    the turn's outcome, {@code null} when it never closed
     * @param code       the classification's code of a failed turn, else {@code null}
     * @param confidence its confidence, else {@code null}
     * @param ruleId     the winning rule, else {@code null}
     */
    record Got(Outcome outcome, Code code, Confidence confidence, String ruleId) {
        String label() {
            return outcome == null ? "(no outcome)" : outcome == Outcome.FAILED ? code.wire() : "(" + outcome.wire() + ")";
        }

        boolean automaticRetry() {
            return outcome == Outcome.FAILED && code.errorClass() == ErrorClass.TRANSIENT && confidence == Confidence.HIGH;
        }
    }

    /** One scored item: a case id or sequence name, its split ({@code null} for sequences), truth, got. */
    record Item(String id, String split, Truth truth, Got got) {
        boolean matches() {
            return truth.label().equals(got.label());
        }

        boolean unsafe() {
            return got.automaticRetry() && !(truth.outcome() == Outcome.FAILED && truth.code().errorClass() == ErrorClass.TRANSIENT);
        }
    }

    /** A count out of a total; {@link #rate()} is {@code NaN} when the total is 0. */
    record Ratio(int count, int of) {
        double rate() {
            return of == 0 ? Double.NaN : (double) count / of;
        }

        /** {@code 0.9375 (15/16)} or {@code n/a (0/0)}. */
        @Override
        public String toString() {
            return (of == 0 ? "n/a" : String.format(java.util.Locale.ROOT, "%.4f", rate())) + " (" + count + "/" + of + ")";
        }
    }

    /** One non-zero cell of the confusion table. */
    record Cell(String truth, String got, int n) {
    }

    /** The figures of one run. */
    record Report(int cases, int failing, Ratio exact, Ratio policy, Ratio errorClass, int unsafe, int silent,
                  int noOutcome, Ratio negativesKept, List<Cell> confusion, List<Item> mismatches) {
    }

    private CatalogueScore() {
    }

    /** Scores the items (in input order). */
    static Report score(List<Item> items) {
        int failing = 0;
        int exact = 0;
        int policy = 0;
        int cls = 0;
        int unsafe = 0;
        int silent = 0;
        int noOutcome = 0;
        int negatives = 0;
        int kept = 0;
        Map<String, Map<String, Integer>> cells = new TreeMap<>(LABEL_ORDER);
        List<Item> mismatches = new ArrayList<>();
        for (Item i : items) {
            Truth t = i.truth();
            Got g = i.got();
            boolean gotFailed = g.outcome() == Outcome.FAILED;
            if (t.outcome() == Outcome.FAILED) {
                failing++;
                if (gotFailed && g.code() == t.code()) {
                    exact++;
                }
                if (gotFailed && PolicyGroup.of(g.code()) == PolicyGroup.of(t.code())) {
                    policy++;
                }
                if (gotFailed && g.code().errorClass() == t.code().errorClass()) {
                    cls++;
                }
                if (g.outcome() == Outcome.COMPLETED) {
                    silent++;
                }
            } else {
                negatives++;
                if (g.outcome() == t.outcome()) {
                    kept++;
                }
            }
            if (i.unsafe()) {
                unsafe++;
            }
            if (g.outcome() == null) {
                noOutcome++;
            }
            cells.computeIfAbsent(t.label(), k -> new TreeMap<>(LABEL_ORDER)).merge(g.label(), 1, Integer::sum);
            if (!i.matches()) {
                mismatches.add(i);
            }
        }
        List<Cell> confusion = new ArrayList<>();
        cells.forEach((truth, row) -> row.forEach((got, n) -> confusion.add(new Cell(truth, got, n))));
        return new Report(items.size(), failing, new Ratio(exact, failing), new Ratio(policy, failing),
                new Ratio(cls, failing), unsafe, silent, noOutcome, new Ratio(kept, negatives), List.copyOf(confusion),
                List.copyOf(mismatches));
    }

    /** Codes in DESIGN §5.1 order, then {@code (completed)}, {@code (cancelled)}, {@code (no outcome)}. */
    static final Comparator<String> LABEL_ORDER = Comparator.comparingInt(CatalogueScore::labelRank)
            .thenComparing(Comparator.naturalOrder());

    private static int labelRank(String label) {
        for (Code c : Code.values()) {
            if (c.wire().equals(label)) {
                return c.ordinal();
            }
        }
        return switch (label) {
            case "(completed)" -> 100;
            case "(cancelled)" -> 101;
            default -> 102;
        };
    }
}
