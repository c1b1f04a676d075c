package io.recourse.cli;

import io.recourse.config.RecourseConfig;
import io.recourse.runtime.ClusterConnection;
import io.recourse.runtime.TopicCheck;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The cluster-connection options the commands that talk to Kafka mix in ({@code topics},
 * {@code produce}, {@code reset}, {@code tail}, {@code bench}): {@code --config}/{@code --set}
 * ({@link ConfigOption}) and {@code --bootstrap-server} (alias {@code --bootstrap-servers}), which
 * overrides {@code bootstrap.servers}. Where they connect is {@link ClusterConnection}'s one rule: the
 * configured cluster; else the embedded broker of {@code state.dir} that a running
 * {@code recourse run} serves (its port file), or one started for the command on the same data.
 * Admin calls wait at most {@link TopicCheck#CLUSTER_TIMEOUT}; an unreachable cluster is one
 * {@link io.recourse.config.ConfigurationException} line (exit 2), worded as {@code run}'s startup check.
 */
public final class ClusterOptions {

    @Mixin
    ConfigOption config;

    @Option(names = {"--bootstrap-server", "--bootstrap-servers"}, paramLabel = "HOST:PORT[,…]",
            description = "The Kafka cluster (overrides bootstrap.servers; without either: the embedded broker of state.dir).")
    String bootstrap;

    /** The configuration ({@link ConfigOption#load()}) with {@code --bootstrap-server} applied. */
    public RecourseConfig load() {
        RecourseConfig c = config.load();
        return bootstrap == null ? c : c.with(RecourseConfig.BOOTSTRAP_SERVERS, bootstrap);
    }

    /** Where {@code c} connects ({@link ClusterConnection#open}); close it when done. */
    public static ClusterConnection connect(RecourseConfig c) {
        return ClusterConnection.open(c);
    }

    /** An Admin client on {@code cluster} with {@code c}'s client properties and bounded timeouts ({@link TopicCheck#admin}). */
    public static Admin admin(RecourseConfig c, ClusterConnection cluster) {
        return TopicCheck.admin(c, cluster.bootstrap());
    }

    /**
     * Whether topic {@code name} exists on {@code cluster} (Admin {@code listTopics}).
     *
     * @throws io.recourse.config.ConfigurationException when the cluster does not answer within {@link TopicCheck#CLUSTER_TIMEOUT}
     */
    public static boolean topicExists(RecourseConfig c, ClusterConnection cluster, String name) {
        try (Admin admin = admin(c, cluster)) {
            Set<String> names = TopicCheck.await(admin.listTopics().names(), cluster.bootstrap(), "list topics");
            return names.contains(name);
        }
    }
}
