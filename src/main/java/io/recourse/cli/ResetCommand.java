package io.recourse.cli;

import io.recourse.config.RecourseConfig;
import io.recourse.config.TopicSpec;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.runtime.ClusterConnection;
import io.recourse.runtime.RecourseRunner;
import io.recourse.runtime.TopicCheck;
import io.recourse.topology.RecourseTopology;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
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
 * ({@link KafkaStreams#cleanUp()}). Every instance must be stopped first: when the consumer group
 * {@code application.id} still has members, it prints one line naming the group, the member count
 * and their hosts and exits 1, changing nothing ({@code --force} skips that check and lets the tool
 * remove the members). {@code --dry-run} prints what would be reset or deleted, the tool's own plan,
 * and ends with {@code dry run: nothing changed}. Output topics are left alone: after a reset
 * Recourse writes its decisions again. Exit codes: 0 reset (or planned), 1 refused, declined or the
 * tool failed, 2 configuration error or unreachable cluster.
 */
@Command(name = "reset", mixinStandardHelpOptions = true,
        description = "Reset Recourse's Kafka Streams application (Kafka's StreamsResetter) and delete its local state; stop every instance first.")
public final class ResetCommand implements Callable<Integer> {

    @Mixin
    ClusterOptions connection;
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
        RecourseConfig c = connection.load();
        PrintWriter out = spec.commandLine().getOut();
        List<String> inputs = TopicSpec.all().stream().filter(s -> s.direction() == TopicSpec.Direction.IN)
                .map(s -> s.name(c)).toList();
        try (ClusterConnection cluster = ClusterOptions.connect(c)) {
            if (!force) {
                Optional<String> active = activeMembers(c, cluster);
                if (active.isPresent()) {
                    spec.commandLine().getErr().println(active.get());
                    return 1;
                }
            }
            String would = dryRun ? "would be " : "";
            out.printf("reset application.id=%s on %s%s:%n  input topics: %sreset to the earliest offset: %s%n"
                            + "  internal topics (%s-*-repartition, -changelog): %sdeleted%n  local state %s: %sdeleted%n",
                    c.applicationId(), cluster.describe(), dryRun ? " (dry run)" : "", would, String.join(", ", inputs),
                    c.applicationId(), would, c.stateDir().resolve("streams").resolve(c.applicationId()), would);
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
            if (dryRun) {
                out.println("dry run: nothing changed");
            } else {
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

    /**
     * The refusal line when the Streams app's consumer group ({@code application.id}) still has
     * members, naming the group, how many and on which hosts; empty when it has none or does not exist.
     *
     * @throws io.recourse.config.ConfigurationException when the cluster does not answer
     */
    static Optional<String> activeMembers(RecourseConfig c, ClusterConnection cluster) {
        String group = c.applicationId();
        String bootstrap = cluster.bootstrap();
        try (Admin admin = ClusterOptions.admin(c, cluster)) {
            KafkaFuture<ConsumerGroupDescription> described = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group);
            ConsumerGroupDescription d;
            try {
                d = TopicCheck.await(described, bootstrap, "describe consumer group " + group);
            } catch (io.recourse.config.ConfigurationException e) {
                if (notFound(described)) {
                    return Optional.empty(); // no group yet: nothing runs
                }
                throw e;
            }
            Collection<MemberDescription> members = d.members();
            if (members.isEmpty()) {
                return Optional.empty();
            }
            Set<String> hosts = new TreeSet<>();
            members.forEach(m -> hosts.add(m.host()));
            return Optional.of("not reset: consumer group " + group + " has " + members.size() + " active member(s) on "
                    + String.join(", ", hosts) + "; stop every Recourse instance of application.id=" + group
                    + " first (--force removes members that did not leave, e.g. static members)");
        }
    }

    private static boolean notFound(KafkaFuture<?> f) {
        try {
            f.getNow(null);
            return false;
        } catch (ExecutionException e) {
            return e.getCause() instanceof GroupIdNotFoundException;
        } catch (InterruptedException | RuntimeException e) {
            return false;
        }
    }

    private boolean confirm(PrintWriter out) throws IOException {
        out.print("Reset? Recourse will reprocess every input and write its outputs again. [y/N] ");
        out.flush();
        String answer = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        return answer != null && (answer.trim().equalsIgnoreCase("y") || answer.trim().equalsIgnoreCase("yes"));
    }
}
