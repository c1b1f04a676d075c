package io.recourse;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The package layering of ARCHITECTURE.md, checked on the compiled main classes: packages by stage in
 * data-flow order, each depending only on the ones below it; no package cycle; Kafka types only where
 * Kafka is wired.
 */
class ArchitectureTest {

    /**
     * Every main package, bottom first, with its rank: a class may depend on its own package and on
     * packages of a lower rank only (two packages of one rank, the two owners, never on each other).
     */
    static final Map<String, Integer> RANK = Map.ofEntries(
            Map.entry("io.recourse.avro", 0),
            Map.entry("io.recourse.taxonomy", 1),
            Map.entry("io.recourse.config", 2),
            Map.entry("io.recourse.kit", 3),
            Map.entry("io.recourse.ingress", 4),
            Map.entry("io.recourse.ingress.streams", 5),
            Map.entry("io.recourse.evidence", 6),
            Map.entry("io.recourse.evidence.streams", 7),
            Map.entry("io.recourse.classification.hints", 8),
            Map.entry("io.recourse.classification", 9),
            Map.entry("io.recourse.classification.streams", 10),
            Map.entry("io.recourse.interactive", 11),
            Map.entry("io.recourse.interactive.streams", 12),
            Map.entry("io.recourse.routing", 11),
            Map.entry("io.recourse.routing.streams", 12),
            Map.entry("io.recourse.topology", 13),
            Map.entry("io.recourse.runtime", 14),
            Map.entry("io.recourse.http", 15),
            Map.entry("io.recourse.demo", 16),
            Map.entry("io.recourse.bench", 17),
            Map.entry("io.recourse.cli", 18));

    /** Where Kafka types may appear: the stages' Kafka plumbing, the kit, the wiring and the runner. */
    static final String[] KAFKA_ALLOWED = {"..streams..", "io.recourse.kit..", "io.recourse.topology..",
            "io.recourse.runtime..", "io.recourse.http..", "io.recourse.demo..", "io.recourse.bench..", "io.recourse.cli.."};

    static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("io.recourse");

    @Test
    void every_main_package_has_a_place_in_the_layering() {
        TreeSet<String> unknown = new TreeSet<>();
        for (JavaClass c : MAIN) {
            if (!RANK.containsKey(c.getPackageName())) {
                unknown.add(c.getPackageName());
            }
        }
        assertThat(unknown).as("packages missing from ArchitectureTest.RANK (and ARCHITECTURE.md)").isEmpty();
    }

    @Test
    void each_package_depends_only_on_packages_below_it() {
        TreeSet<String> violations = new TreeSet<>();
        for (JavaClass c : MAIN) {
            Integer from = RANK.get(c.getPackageName());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass();
                String to = target.getPackageName();
                if (!to.startsWith("io.recourse") || to.equals(c.getPackageName())) {
                    continue;
                }
                Integer rank = RANK.get(to);
                if (from == null || rank == null || rank >= from) {
                    violations.add(c.getPackageName() + " -> " + to + " (" + c.getSimpleName() + " -> "
                            + target.getSimpleName() + ")");
                }
            }
        }
        assertThat(List.copyOf(violations)).as("dependencies against the layering").isEmpty();
    }

    @Test
    void no_package_cycle() {
        slices().matching("io.recourse.(**)").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void kafka_types_only_in_the_plumbing() {
        noClasses().that().resideOutsideOfPackages(KAFKA_ALLOWED)
                .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
                .check(MAIN);
    }
}
