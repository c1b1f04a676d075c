package io.recourse.classification;

import io.recourse.classification.Rule.FieldMatch;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Test inputs of the regex fast-path properties: the shipped catalogues' regexes, part by part. */
final class CatalogueRegexParts {

    private CatalogueRegexParts() {
    }

    /**
     * Every top-level alternative ({@link RegexPrefilter.Part}) of every regex condition and
     * {@code unless} of the v1 and v2 catalogues' rules, background markers and surfaced-failure
     * shapes — each element of a regex list as a regex of its own — then each of {@code shapes}
     * compiled as is and case-insensitively.
     */
    static List<Pattern> withShapes(List<String> shapes) {
        List<Pattern> out = new ArrayList<>();
        for (String resource : List.of(Catalogue.V1_RESOURCE, Catalogue.DEFAULT_RESOURCE)) {
            Catalogue c = Catalogue.loadResource(resource);
            List<Rule.Condition> conditions = new ArrayList<>();
            c.rules().forEach(r -> conditions.addAll(r.conditions()));
            c.backgroundMarkers().forEach(m -> conditions.add(m.condition()));
            c.surfacedShapes().forEach(m -> conditions.add(m.condition()));
            for (Rule.Condition cond : conditions) {
                for (FieldMatch f : new FieldMatch[] {cond.match(), cond.unless()}) {
                    if (f != null && f.type() == Rule.MatchType.REGEX) {
                        for (Pattern each : f.patterns()) {
                            for (RegexPrefilter.Part part : RegexPrefilter.of(each).parts()) {
                                out.add(part.pattern());
                            }
                        }
                    }
                }
            }
        }
        for (String s : shapes) {
            out.add(Pattern.compile(s));
            out.add(Pattern.compile(s, Pattern.CASE_INSENSITIVE));
        }
        return out;
    }
}
