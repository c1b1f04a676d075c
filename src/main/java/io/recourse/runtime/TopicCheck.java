package io.recourse.runtime;

import io.recourse.config.ConfigurationException;
import io.recourse.config.RecourseConfig;
import io.recourse.config.TopicSpec;
import io.recourse.kit.Topic;
import io.recourse.kit.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.SecurityDisabledException;

/**
 * Compares every Recourse topic ({@link Topics}, DESIGN §2) with the cluster: present, its
 * {@code cleanup.policy}, {@code message.timestamp.type=LogAppendTime} where declared, the DLQ's
 * {@code max.message.bytes} at least {@code recourse.dlq.max.record.bytes}, and its partition count
 * against {@code recourse.topic.partitions} (a note only: Recourse repartitions its inputs). Each
 * finding carries the {@code kafka-topics.sh} / {@code kafka-configs.sh} command that fixes it. Every
 * Admin call waits at most {@link #CLUSTER_TIMEOUT}; an unreachable cluster is a
 * {@link ConfigurationException} saying so in one line.
 */
public final class TopicCheck {

    /** How long one Admin call may take before the cluster counts as unreachable. */
    public static final Duration CLUSTER_TIMEOUT = Duration.ofSeconds(15);

    /** A problem (startup fails on it) or a note (reported only). */
    public enum Severity { PROBLEM, NOTE }

    /**
     * One difference between a topic's declaration and the cluster.
     *
     * @param topic the topic's name
     * @param what  e.g. {@code missing}, {@code cleanup.policy=delete, needs compact}
     * @param fix   the shell command that fixes it
     */
    public record Finding(String topic, Severity severity, String what, String fix) {
        /** {@code <topic>: <what>\n    fix: <command>}. */
        public String describe() {
            return topic + ": " + what + "\n    fix: " + fix;
        }
    }

    private TopicCheck() {
    }

    /**
     * An Admin client for {@code bootstrap} with {@code config}'s client properties and short timeouts
     * (unless configured): {@code request.timeout.ms} 10 s, {@code default.api.timeout.ms} 15 s.
     */
    public static Admin admin(RecourseConfig config, String bootstrap) {
        Map<String, Object> props = new HashMap<>(config.clientProperties(bootstrap));
        props.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        props.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CLUSTER_TIMEOUT.toMillis());
        props.putIfAbsent(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1_000);
        return Admin.create(props);
    }

    /**
     * Every difference between the declared topics and the cluster, in DESIGN §2 order.
     *
     * @throws ConfigurationException when the cluster cannot be reached within {@link #CLUSTER_TIMEOUT}
     */
    public static List<Finding> inspect(Admin admin, Topics topics, RecourseConfig config, String bootstrap) {
        Set<String> existing = await(admin.listTopics().names(), bootstrap, "list topics");
        List<String> present = topics.all().stream().map(Topic::name).filter(existing::contains).toList();
        Map<String, TopicDescription> descriptions = await(admin.describeTopics(present).allTopicNames(), bootstrap, "describe topics");
        Map<ConfigResource, Config> configs = await(admin.describeConfigs(present.stream()
                .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList()).all(), bootstrap, "describe topic configs");
        List<Finding> out = new ArrayList<>();
        for (Topic<?, ?> topic : topics.all()) {
            if (!existing.contains(topic.name())) {
                out.add(new Finding(topic.name(), Severity.PROBLEM, "missing", createCommand(topic, config, bootstrap)));
                continue;
            }
            Config c = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, topic.name()));
            for (Map.Entry<String, String> want : topic.topicConfigs().entrySet()) {
                String have = value(c, want.getKey());
                boolean ok = want.getKey().equals(TopicConfig.MAX_MESSAGE_BYTES_CONFIG)
                        ? have != null && Long.parseLong(have) >= Long.parseLong(want.getValue())
                        : want.getValue().equals(have);
                if (!ok) {
                    out.add(new Finding(topic.name(), Severity.PROBLEM,
                            want.getKey() + "=" + have + ", needs " + (want.getKey().equals(TopicConfig.MAX_MESSAGE_BYTES_CONFIG)
                                    ? "at least " : "") + want.getValue(),
                            "kafka-configs.sh --bootstrap-server " + bootstrap + " --alter --entity-type topics --entity-name "
                                    + topic.name() + " --add-config " + want.getKey() + "=" + want.getValue()));
                }
            }
            int partitions = descriptions.get(topic.name()).partitions().size();
            if (partitions != config.topicPartitions()) {
                out.add(new Finding(topic.name(), Severity.NOTE, partitions + " partition(s), "
                        + RecourseConfig.TOPIC_PARTITIONS + "=" + config.topicPartitions()
                        + " (works: Recourse repartitions its inputs; more partitions = more parallelism)",
                        "kafka-topics.sh --bootstrap-server " + bootstrap + " --alter --topic " + topic.name()
                                + " --partitions " + config.topicPartitions() + " (only more; never on a compacted topic others key by)"));
            }
        }
        return out;
    }

    /** The {@code kafka-topics.sh --create} command equivalent to what {@link TopicProvisioner} does for {@code topic}. */
    public static String createCommand(Topic<?, ?> topic, RecourseConfig config, String bootstrap) {
        StringBuilder b = new StringBuilder("kafka-topics.sh --bootstrap-server ").append(bootstrap)
                .append(" --create --if-not-exists --topic ").append(topic.name())
                .append(" --partitions ").append(config.topicPartitions());
        if (config.topicReplicationFactor() > 0) {
            b.append(" --replication-factor ").append(config.topicReplicationFactor());
        }
        topic.topicConfigs().forEach((k, v) -> b.append(" --config ").append(k).append('=').append(v));
        return b.toString();
    }

    /**
     * What the cluster's authorizer lets this client do that Recourse needs (README "ACLs"): for each
     * topic the operations of its direction ({@code READ} for inputs, {@code WRITE} for outputs, both
     * for the internal one) from {@code describeTopics(includeAuthorizedOperations)}.
     *
     * @return one line per missing permission; or a single line {@code not checked: …} when the
     *         cluster has no authorizer or does not let this client describe ACLs
     */
    public static List<String> missingAcls(Admin admin, Topics topics, String bootstrap) {
        try {
            admin.describeAcls(AclBindingFilter.ANY).values().get(CLUSTER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            return List.of(e.getCause() instanceof SecurityDisabledException
                    ? "not checked: the cluster has no authorizer (every client may do everything)"
                    : "not checked: cannot describe ACLs (" + e.getCause().getClass().getSimpleName() + ")");
        } catch (TimeoutException e) {
            return List.of("not checked: describing ACLs timed out");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of("not checked: interrupted");
        }
        Set<String> existing = await(admin.listTopics().names(), bootstrap, "list topics");
        List<String> present = topics.all().stream().map(Topic::name).filter(existing::contains).toList();
        Map<String, TopicDescription> d = await(admin.describeTopics(present,
                new DescribeTopicsOptions().includeAuthorizedOperations(true)).allTopicNames(), bootstrap, "describe topics");
        List<String> missing = new ArrayList<>();
        for (Topic<?, ?> topic : topics.all()) {
            TopicDescription description = d.get(topic.name());
            Set<AclOperation> allowed = description == null || description.authorizedOperations() == null
                    ? Set.of() : description.authorizedOperations();
            Set<AclOperation> need = new TreeSet<>();
            TopicSpec.Direction dir = topic.spec().direction();
            if (dir != TopicSpec.Direction.OUT) {
                need.add(AclOperation.READ);
            }
            if (dir != TopicSpec.Direction.IN) {
                need.add(AclOperation.WRITE);
            }
            need.removeAll(allowed);
            if (allowed.contains(AclOperation.ALL)) {
                need.clear();
            }
            for (AclOperation op : need) {
                missing.add(topic.name() + ": " + op + " not allowed for this client");
            }
        }
        return missing;
    }

    private static String value(Config config, String name) {
        ConfigEntry e = config == null ? null : config.get(name);
        return e == null ? null : e.value();
    }

    /**
     * The future's value within {@link #CLUSTER_TIMEOUT}; an unreachable cluster becomes one clear line.
     *
     * @param what the operation, for the message ({@code cannot <what> on the Kafka cluster at …})
     * @throws ConfigurationException when the cluster does not answer in time or the call fails
     */
    public static <T> T await(org.apache.kafka.common.KafkaFuture<T> future, String bootstrap, String what) {
        try {
            return future.get(CLUSTER_TIMEOUT.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw unreachable(bootstrap);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw unreachable(bootstrap);
            }
            throw new ConfigurationException("cannot " + what + " on the Kafka cluster at " + bootstrap + ": "
                    + e.getCause().getClass().getSimpleName() + ": " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static ConfigurationException unreachable(String bootstrap) {
        return new ConfigurationException("the Kafka cluster at " + bootstrap + " did not answer within "
                + CLUSTER_TIMEOUT.toSeconds() + " s: check " + RecourseConfig.BOOTSTRAP_SERVERS
                + " (host, port, advertised listener) and security.protocol / sasl.* / ssl.*");
    }
}
