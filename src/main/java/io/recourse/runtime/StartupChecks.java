package io.recourse.runtime;

import io.recourse.config.ConfigurationException;
import io.recourse.config.RecourseConfig;
import io.recourse.kit.Topics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;

/**
 * The startup checks of DESIGN §2, run before Kafka Streams starts. Each failure throws
 * {@link ConfigurationException}:
 * <ul>
 *   <li>every topic Recourse reads or writes ({@link Topics}) must exist with its declared
 *       {@code cleanup.policy}, {@code message.timestamp.type=LogAppendTime} on the frames topic
 *       (stream time is broker time, DESIGN §4) and a DLQ {@code max.message.bytes} of at least
 *       {@code recourse.dlq.max.record.bytes}: one message names every missing or misconfigured
 *       topic with the command that fixes it ({@link TopicCheck});</li>
 *   <li>every owner's sources must have one partition count (co-partitioning). The sources are the
 *       owner's repartition topics ({@code <application.id>-<name>-repartition}); topics not yet
 *       created are skipped, because Streams creates them all with
 *       {@code recourse.owner.partitions}.</li>
 * </ul>
 * An unreachable cluster fails within {@link TopicCheck#CLUSTER_TIMEOUT}, saying so.
 */
public final class StartupChecks {

    private StartupChecks() {
    }

    /**
     * Runs every check.
     *
     * @param bootstrap    the cluster's address, for the messages and the fix commands
     * @param ownerSources owner name → its source topics (full names)
     * @throws ConfigurationException naming the offending topics
     */
    public static void run(Admin admin, Topics topics, RecourseConfig config, String bootstrap,
                           Map<String, List<String>> ownerSources) {
        checkTopics(admin, topics, config, bootstrap);
        ownerSources.forEach((owner, sources) -> checkCoPartitioned(admin, owner, sources));
    }

    /** Fails, in one message naming each and its fix, when a declared topic is missing or misconfigured. */
    public static void checkTopics(Admin admin, Topics topics, RecourseConfig config, String bootstrap) {
        List<TopicCheck.Finding> problems = TopicCheck.inspect(admin, topics, config, bootstrap).stream()
                .filter(f -> f.severity() == TopicCheck.Severity.PROBLEM).toList();
        if (!problems.isEmpty()) {
            StringBuilder b = new StringBuilder().append(problems.size())
                    .append(problems.size() == 1 ? " Recourse topic is" : " Recourse topics are")
                    .append(" missing or misconfigured on ").append(bootstrap).append(':');
            problems.forEach(p -> b.append("\n  ").append(p.describe()));
            b.append("\nrun `recourse topics create` (creates the missing ones; --dry-run prints the commands),"
                    + " or set recourse.topics.create=true");
            throw new ConfigurationException(b.toString());
        }
    }

    /** The full names of the owners' repartition topics for {@code applicationId}. */
    public static Map<String, List<String>> repartitionTopics(String applicationId, Map<String, List<String>> ownerSources) {
        Map<String, List<String>> out = new TreeMap<>();
        ownerSources.forEach((owner, names) ->
                out.put(owner, names.stream().map(n -> applicationId + "-" + n + "-repartition").toList()));
        return out;
    }

    /** Fails when the existing topics among {@code sources} differ in partition count. */
    public static void checkCoPartitioned(Admin admin, String owner, Collection<String> sources) {
        Map<String, Integer> counts = partitionCounts(admin, sources);
        if (counts.values().stream().distinct().count() > 1) {
            throw new ConfigurationException("the " + owner + " owner's sources are not co-partitioned: " + counts
                    + " (DESIGN §2: all sources of one owner need the same partition count)");
        }
    }

    private static Map<String, Integer> partitionCounts(Admin admin, Collection<String> names) {
        try {
            Set<String> existing = admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(false))
                    .names().get();
            List<String> present = new ArrayList<>(names);
            present.retainAll(existing);
            Map<String, TopicDescription> descriptions = admin.describeTopics(present).allTopicNames().get();
            Map<String, Integer> counts = new TreeMap<>();
            descriptions.forEach((name, d) -> counts.put(name, d.partitions().size()));
            return counts;
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe topics " + names + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
