package io.recourse.cli;

import io.recourse.config.RecourseConfig;
import io.recourse.config.TopicSpec;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.runtime.ClusterConnection;
import io.recourse.runtime.RecourseRunner;
import io.recourse.topology.RecourseTopology;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.tools.StreamsResetter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code recourse reset}: Kafka's application reset tool ({@link StreamsResetter}) for
 * {@code application.id} — committed offsets of every input topic back to the earliest, internal
 * topics (repartition, changelog) deleted — then the local state of {@code <state.dir>/streams}
 * ({@link KafkaStreams#cleanUp()}). Every instance must be stopped first (the tool refuses an active
 * group; {@code --force} removes its members). Output topics are left alone: after a reset Recourse
 * writes its decisions again.
 */
@Command(name = "reset", mixinStandardHelpOptions = true,
        description = "Reset Recourse's Kafka Streams application (Kafka's StreamsResetter) and delete its local state; stop every instance first.")
public final class ResetCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;
    @Spec
    CommandSpec spec;
    @Option(names = "--yes", description = "Do not ask for confirmation.")
    boolean yes;
    @Option(names = "--dry-run", description = "Show what the reset tool would do (its --dry-run); change nothing.")
    boolean dryRun;
    @Option(names = "--force", description = "Remove active members from the consumer group first (instances that did not leave, e.g. static members).")
    boolean force;

    @Override
    public Integer call() throws IOException {
        RecourseConfig c = config.load();
        PrintWriter out = spec.commandLine().getOut();
        List<String> inputs = TopicSpec.all().stream().filter(s -> s.direction() == TopicSpec.Direction.IN)
                .map(s -> s.name(c)).toList();
        try (ClusterConnection cluster = ClusterConnection.open(c)) {
            out.printf("reset application.id=%s on %s:%n  input topics to the earliest offset: %s%n"
                            + "  internal topics (%s-*-repartition, -changelog): deleted%n  local state: %s%n",
                    c.applicationId(), cluster.describe(), String.join(", ", inputs), c.applicationId(),
                    c.stateDir().resolve("streams").resolve(c.applicationId()));
            if (!dryRun && !yes && !confirm(out)) {
                out.println("not reset");
                return 1;
            }
            List<String> args = new ArrayList<>(List.of("--bootstrap-server", cluster.bootstrap(),
                    "--application-id", c.applicationId(), "--input-topics", String.join(",", inputs)));
            if (dryRun) {
                args.add("--dry-run");
            }
            if (force) {
                args.add("--force");
            }
            out.println("running: kafka-streams-application-reset.sh " + String.join(" ", args));
            out.flush();
            Properties client = new Properties();
            client.putAll(c.clientProperties(cluster.bootstrap()));
            int rc = new StreamsResetter().execute(args.toArray(String[]::new), client);
            if (rc != 0) {
                out.println("the reset tool failed (exit " + rc + "); local state kept");
                return 1;
            }
            if (!dryRun) {
                try (KafkaStreams streams = new KafkaStreams(
                        RecourseTopology.build(c, RecourseTopology.Options.with(RecourseMeters.global())),
                        RecourseRunner.streamsProperties(c, cluster.bootstrap()))) {
                    streams.cleanUp();
                }
                out.println("local state deleted; the next `recourse run` reprocesses the inputs from the start");
            }
            out.flush();
            return 0;
        }
    }

    private boolean confirm(PrintWriter out) throws IOException {
        out.print("Reset? Recourse will reprocess every input and write its outputs again. [y/N] ");
        out.flush();
        String answer = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        return answer != null && (answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"));
    }
}
