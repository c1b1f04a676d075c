package io.recourse.classification;

import io.recourse.classification.SignatureFixtures.Line;
import java.util.ArrayList;
import java.util.List;

/** The size of {@link CatalogueBenchmark}'s corpus mix, so a JMH score (mixes/s) converts to signals/s. */
public final class CatalogueMixSize {

    private CatalogueMixSize() {
    }

    /** Signals in one mix: every signature line and catalogue fixture as a turn, as the benchmark builds them. */
    public static long signals() {
        List<Line> lines = new ArrayList<>(SignatureFixtures.read("corpus/signatures.jsonl"));
        lines.addAll(SignatureFixtures.read(CatalogueFixturesTest.FIXTURES));
        long n = 0;
        for (Line l : lines) {
            n += (l.expected() == null ? SignatureFixtures.completedTurn(l) : SignatureFixtures.failedTurn(l)).signals().size();
        }
        return n;
    }

    /** Signals in one observed mix (the observed corpus's cases, rendered and assembled). */
    public static long observedSignals() {
        return CatalogueBenchmark.observedMix().stream().mapToLong(e -> e.signals().size()).sum();
    }

    /** Turns in one observed mix. */
    public static int observedTurns() {
        return CatalogueBenchmark.observedMix().size();
    }

    /** Turns in one mix. */
    public static int turns() {
        return SignatureFixtures.read("corpus/signatures.jsonl").size() + SignatureFixtures.read(CatalogueFixturesTest.FIXTURES).size();
    }
}
