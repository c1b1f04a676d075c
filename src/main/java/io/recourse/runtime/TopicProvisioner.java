package io.recourse.runtime;

import io.recourse.config.RecourseConfig;
import io.recourse.kit.Topic;
import io.recourse.kit.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the DESIGN §2 topics that are absent, with {@code recourse.topic.partitions} partitions,
 * {@code recourse.topic.replication.factor} replicas and each topic's configs from {@link Topics}
 * (cleanup policy; {@code LogAppendTime} on the frames topic). Existing topics are left as they are
 * — {@link StartupChecks} verifies what matters. Runs only when
 * {@link RecourseConfig#createTopics()} holds: on the embedded broker by default, on an external
 * cluster only with {@code recourse.topics.create=true}.
 */
public final class TopicProvisioner {

    private static final Logger LOG = LoggerFactory.getLogger(TopicProvisioner.class);

    private TopicProvisioner() {
    }

    /**
     * Creates every absent topic of {@code topics}.
     *
     * @return the names of the topics created, in DESIGN §2 order (empty when all existed)
     * @throws IllegalStateException when the cluster refuses to create one (naming it)
     */
    public static List<String> createMissing(Admin admin, Topics topics, RecourseConfig config) {
        return createMissing(admin, topics, config, "the cluster");
    }

    /**
     * The topics of {@code topics} absent from the cluster at {@code bootstrap}, in DESIGN §2 order.
     *
     * @throws io.recourse.config.ConfigurationException when the cluster does not answer (saying so)
     */
    public static List<Topic<?, ?>> missing(Admin admin, Topics topics, String bootstrap) {
        Set<String> existing = TopicCheck.await(admin.listTopics().names(), bootstrap, "list topics");
        return topics.all().stream().filter(t -> !existing.contains(t.name())).toList();
    }

    /** As {@link #createMissing(Admin, Topics, RecourseConfig)}, naming {@code bootstrap} when the cluster does not answer. */
    public static List<String> createMissing(Admin admin, Topics topics, RecourseConfig config, String bootstrap) {
        try {
            List<NewTopic> missing = new ArrayList<>();
            for (Topic<?, ?> topic : missing(admin, topics, bootstrap)) {
                missing.add(new NewTopic(topic.name(), Optional.of(config.topicPartitions()),
                        Optional.of(config.topicReplicationFactor())).configs(topic.topicConfigs()));
            }
            List<String> created = new ArrayList<>();
            var result = admin.createTopics(missing);
            for (NewTopic t : missing) {
                try {
                    result.values().get(t.name()).get();
                    created.add(t.name());
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) { // another instance was faster
                        throw new IllegalStateException("cannot create topic " + t.name() + ": " + e.getCause().getMessage(), e.getCause());
                    }
                }
            }
            awaitVisible(admin, created);
            if (!created.isEmpty()) {
                LOG.info("created {} topic(s) with {} partitions: {}", created.size(), config.topicPartitions(), created);
            }
            return created;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }

    /** Waits until newly created topics can be described (metadata propagates asynchronously), at most 30 s. */
    private static void awaitVisible(Admin admin, List<String> names) throws InterruptedException {
        if (names.isEmpty()) {
            return;
        }
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                var configs = names.stream()
                        .map(n -> new org.apache.kafka.common.config.ConfigResource(org.apache.kafka.common.config.ConfigResource.Type.TOPIC, n))
                        .toList();
                admin.describeTopics(names).allTopicNames().get();
                admin.describeConfigs(configs).all().get();
                return;
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("created topics " + names + " are not visible: " + e.getCause(), e.getCause());
                }
                Thread.sleep(100); // bounded poll of the cluster's metadata, not a test wait
            }
        }
    }
}
