package io.recourse.runtime;

import io.recourse.config.ConfigurationException;
import io.recourse.kit.Topics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The startup checks of DESIGN §2, run before Kafka Streams starts. Each failure throws
 * {@link ConfigurationException} naming the topics involved:
 * <ul>
 *   <li>the frames topic must exist and have {@code message.timestamp.type=LogAppendTime}
 *       (stream time is broker time, DESIGN §4);</li>
 *   <li>every owner's sources must have one partition count (co-partitioning). The sources are the
 *       owner's repartition topics ({@code <application.id>-<name>-repartition}); topics not yet
 *       created are skipped, because Streams creates them all with
 *       {@code recourse.owner.partitions}.</li>
 * </ul>
 */
public final class StartupChecks {

    private StartupChecks() {
    }

    /**
     * Runs every check.
     *
     * @param ownerSources owner name → its source topics (full names)
     * @throws ConfigurationException naming the offending topics
     */
    public static void run(Admin admin, Topics topics, Map<String, List<String>> ownerSources) {
        checkFramesUseLogAppendTime(admin, topics.agentFrames().name());
        ownerSources.forEach((owner, sources) -> checkCoPartitioned(admin, owner, sources));
    }

    /** The full names of the owners' repartition topics for {@code applicationId}. */
    public static Map<String, List<String>> repartitionTopics(String applicationId, Map<String, List<String>> ownerSources) {
        Map<String, List<String>> out = new TreeMap<>();
        ownerSources.forEach((owner, names) ->
                out.put(owner, names.stream().map(n -> applicationId + "-" + n + "-repartition").toList()));
        return out;
    }

    /** Fails unless {@code framesTopic} exists with {@code message.timestamp.type=LogAppendTime}. */
    public static void checkFramesUseLogAppendTime(Admin admin, String framesTopic) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, framesTopic);
        Config config;
        try {
            config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
        } catch (ExecutionException e) {
            throw new ConfigurationException("frames topic " + framesTopic + " cannot be described: "
                    + e.getCause() + " (create it, or set recourse.topics.create=true)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        ConfigEntry type = config.get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG);
        String value = type == null ? null : type.value();
        if (!"LogAppendTime".equals(value)) {
            throw new ConfigurationException("frames topic " + framesTopic + " has " + TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG
                    + "=" + value + "; Recourse needs LogAppendTime (DESIGN §2, §4: stream time is broker time)");
        }
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
