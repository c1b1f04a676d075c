package io.recourse.runtime;

import io.recourse.config.RecourseConfig;
import io.recourse.kit.Topic;
import io.recourse.kit.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;

/**
 * Waiting until freshly created topics can be written: an idempotent producer that starts on a
 * partition before its leader is known can loop on out-of-order sequence errors (Kafka's known
 * issues, BENCHMARKS.md, Method), so the benchmark and the demos wait before they produce.
 */
public final class PartitionLeaders {

    private PartitionLeaders() {
    }

    /**
     * Waits until the Recourse topics of {@code config} and the internal topics of its
     * {@code application.id} ({@code <application.id>-…}) on {@code bootstrap} have leaders (see
     * {@link #await(Admin, Predicate, Duration)}).
     */
    public static void await(RecourseConfig config, String bootstrap, Duration timeout) throws InterruptedException, ExecutionException {
        Set<String> recourse = Topics.from(config).all().stream().map(Topic::name).collect(Collectors.toSet());
        String internal = config.applicationId() + "-";
        try (Admin admin = TopicCheck.admin(config, bootstrap)) {
            await(admin, t -> recourse.contains(t) || t.startsWith(internal), timeout);
        }
    }

    /**
     * Waits until every partition of every topic that {@code topics} accepts, and of the broker's
     * internal topics ({@code __transaction_state}, {@code __consumer_offsets}, once they exist), has
     * a leader, polling the cluster's metadata every 50 ms.
     *
     * @throws IllegalStateException when some partition has none after {@code timeout}, naming the topics
     * @throws ExecutionException    when the topics cannot be listed
     */
    public static void await(Admin admin, Predicate<String> topics, Duration timeout) throws InterruptedException, ExecutionException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get().stream()
                    .filter(t -> topics.test(t) || t.startsWith("__")).toList();
            List<String> leaderless = new ArrayList<>();
            try {
                admin.describeTopics(names).allTopicNames().get().forEach((name, d) -> {
                    if (d.partitions().stream().anyMatch(p -> p.leader() == null || p.leader().id() < 0)) {
                        leaderless.add(name);
                    }
                });
            } catch (ExecutionException e) {
                leaderless.add(String.valueOf(e.getCause())); // a topic still being created or deleted: ask again
            }
            if (leaderless.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("partitions without a leader after " + timeout + ": " + leaderless);
            }
            Thread.sleep(50); // polling the cluster's metadata
        }
    }
}
