package io.recourse.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.config.RecourseConfig;
import io.recourse.evidence.streams.EvidenceTopology;
import io.recourse.evidence.streams.RecourseMeters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** STYLE.md: {@code topology-docs/} holds the checked-in {@code Topology.describe()}; it must match the code. */
public class TopologyDocsTest {

    public static final Path GOLDEN = Path.of("topology-docs", "topology.txt");
    public static final String REGENERATE = "topology-docs/topology.txt differs from RecourseTopology.build(defaults).describe(); "
            + "regenerate it with: mvn -o -q package -DskipTests && java -jar target/recourse.jar describe > topology-docs/topology.txt "
            + "(and update the diagram in topology-docs/topology.md)";

    @Test
    public void the_checked_in_topology_description_matches_the_code() throws IOException {
        String described = RecourseTopology.build(RecourseConfig.defaults(),
                RecourseTopology.Options.with(RecourseMeters.global())).describe().toString();

        String checkedIn = Files.readString(GOLDEN, StandardCharsets.UTF_8);

        assertThat(checkedIn.strip()).as(REGENERATE).isEqualTo(described.strip());
    }

    @Test
    public void every_owner_repartition_topic_the_topology_creates_is_one_the_startup_checks_know() {
        String described = RecourseTopology.build(RecourseConfig.defaults(),
                RecourseTopology.Options.with(RecourseMeters.global())).describe().toString();

        java.util.Set<String> repartition = new java.util.TreeSet<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\(topic: ([\\w.-]+)-repartition\\)").matcher(described);
        while (m.find()) {
            repartition.add(m.group(1));
        }

        java.util.Set<String> known = new java.util.TreeSet<>();
        RecourseTopology.OWNER_SOURCES.values().forEach(known::addAll);
        assertThat(repartition).isNotEmpty().isSubsetOf(known);
    }

    @Test
    public void every_evidence_store_and_owner_repartition_topic_appears_in_the_checked_in_description() throws IOException {
        String checkedIn = Files.readString(GOLDEN, StandardCharsets.UTF_8);

        assertThat(checkedIn).contains(EvidenceTopology.SIGNAL_STORE, EvidenceTopology.TURN_STORE, EvidenceTopology.TIME_INDEX_STORE,
                RecourseTopology.SESSION_EVENTS_BY_SESSION + "-repartition", RecourseTopology.SESSION_EVENTS_BY_WORKSPACE + "-repartition");
    }
}
