package io.recourse.cli;

import io.recourse.config.RecourseConfig;
import io.recourse.kit.Topic;
import io.recourse.kit.Topics;
import io.recourse.runtime.ClusterConnection;
import io.recourse.runtime.TopicCheck;
import io.recourse.runtime.TopicProvisioner;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code recourse topics create|check}: creates or verifies every Recourse topic (DESIGN §2) on the
 * configured cluster through the Admin API ({@link TopicProvisioner}, {@link TopicCheck}), printing
 * the equivalent {@code kafka-topics.sh} commands. It connects as {@link ClusterOptions} says
 * ({@code bootstrap.servers} or {@code --bootstrap-server}, else the embedded broker of {@code state.dir}). Exit codes: 0 all good,
 * 1 a topic is missing or misconfigured ({@code check}), 2 configuration error or unreachable cluster.
 */
@Command(name = "topics", mixinStandardHelpOptions = true,
        description = "Create or check the Recourse topics on the cluster (Admin API; idempotent).",
        subcommands = {TopicsCommand.Create.class, TopicsCommand.Check.class})
public final class TopicsCommand {

    /** {@code recourse topics create [--dry-run]}. */
    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create the missing Recourse topics (partitions, cleanup policy, LogAppendTime); existing ones are left as they are.")
    static final class Create implements Callable<Integer> {
        @Mixin
        ClusterOptions cluster;
        @Spec
        CommandSpec spec;
        @Option(names = "--dry-run", description = "Print the kafka-topics.sh commands for the missing topics; create nothing.")
        boolean dryRun;

        @Override
        public Integer call() {
            RecourseConfig c = this.cluster.load();
            PrintWriter out = spec.commandLine().getOut();
            Topics topics = Topics.from(c);
            try (ClusterConnection cluster = ClusterOptions.connect(c); Admin admin = ClusterOptions.admin(c, cluster)) {
                List<Topic<?, ?>> missing = TopicProvisioner.missing(admin, topics, cluster.bootstrap());
                out.printf("%d of %d Recourse topics missing on %s%n", missing.size(), topics.all().size(), cluster.describe());
                for (Topic<?, ?> t : missing) {
                    out.println((dryRun ? "would run: " : "creating: ") + TopicCheck.createCommand(t, c, cluster.bootstrap()));
                }
                if (!dryRun && !missing.isEmpty()) {
                    List<String> created = TopicProvisioner.createMissing(admin, topics, c, cluster.bootstrap());
                    out.printf("created %d topic(s)%n", created.size());
                }
                out.flush();
                return dryRun ? 0 : Check.report(admin, topics, c, cluster.bootstrap(), out);
            }
        }
    }

    /** {@code recourse topics check}. */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Verify every Recourse topic: present, cleanup policy, LogAppendTime, DLQ max.message.bytes, partitions; and the client's ACLs where the cluster describes them.")
    static final class Check implements Callable<Integer> {
        @Mixin
        ClusterOptions cluster;
        @Spec
        CommandSpec spec;
        @Option(names = "--dry-run", description = "Accepted for symmetry with create: check never changes anything.")
        boolean dryRun;

        @Override
        public Integer call() {
            RecourseConfig c = this.cluster.load();
            Topics topics = Topics.from(c);
            try (ClusterConnection cluster = ClusterOptions.connect(c); Admin admin = ClusterOptions.admin(c, cluster)) {
                spec.commandLine().getOut().printf("checking %d Recourse topics on %s%n", topics.all().size(), cluster.describe());
                return report(admin, topics, c, cluster.bootstrap(), spec.commandLine().getOut());
            }
        }

        /** Prints each topic's state, then the ACL check; 0 when no topic has a problem, else 1. */
        static int report(Admin admin, Topics topics, RecourseConfig c, String bootstrap, PrintWriter out) {
            List<TopicCheck.Finding> findings = TopicCheck.inspect(admin, topics, c, bootstrap);
            for (Topic<?, ?> t : topics.all()) {
                List<TopicCheck.Finding> mine = findings.stream().filter(f -> f.topic().equals(t.name())).toList();
                if (mine.isEmpty()) {
                    out.printf("ok       %-40s %s%n", t.name(), t.topicConfigs());
                }
                for (TopicCheck.Finding f : mine) {
                    out.printf("%-8s %-40s %s%n         fix: %s%n", f.severity() == TopicCheck.Severity.PROBLEM ? "PROBLEM" : "note",
                            t.name(), f.what(), f.fix());
                }
            }
            List<String> acls = TopicCheck.missingAcls(admin, topics, bootstrap);
            out.println("ACLs: " + (acls.isEmpty() ? "every topic allows what Recourse needs (README \"ACLs\")" : String.join("\n      ", acls)));
            long problems = findings.stream().filter(f -> f.severity() == TopicCheck.Severity.PROBLEM).count();
            out.println(problems == 0 ? "all Recourse topics are in order"
                    : problems + " problem(s); `recourse topics create` creates missing topics, the fix lines correct the others");
            out.flush();
            return problems == 0 ? 0 : 1;
        }
    }
}
