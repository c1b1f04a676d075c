package io.recourse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recourse.config.ConfigurationException;
import io.recourse.config.RecourseConfig;
import io.recourse.runtime.EmbeddedKafkaBroker;
import io.recourse.runtime.EmbeddedTestBroker;
import io.recourse.runtime.RecourseRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/** {@code recourse topics|produce|reset} against a real (embedded) broker; the first test sees it empty. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public class OperatorCommandsIT {

    private static EmbeddedTestBroker broker;

    @TempDir
    static Path stateDir;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedTestBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static String[] args(String... command) {
        List<String> a = new ArrayList<>(List.of(command));
        a.addAll(List.of("--set", "bootstrap.servers=" + broker.bootstrapServers(), "--set", "state.dir=" + stateDir,
                "--set", "recourse.topic.partitions=2"));
        return a.toArray(String[]::new);
    }

    @Test
    @Order(1)
    void topics_check_names_what_is_missing_create_dry_run_changes_nothing_and_create_is_idempotent() {
        Cli.Run check = Cli.run(args("topics", "check"));
        assertThat(check.exitCode()).as(check.err()).isEqualTo(1);
        assertThat(check.out()).contains("PROBLEM  recourse.dlq", "missing",
                "kafka-topics.sh --bootstrap-server " + broker.bootstrapServers() + " --create --if-not-exists --topic recourse.agent-frames"
                        + " --partitions 2 --config cleanup.policy=delete --config message.timestamp.type=LogAppendTime",
                "ACLs: not checked: the cluster has no authorizer");

        Cli.Run dry = Cli.run(args("topics", "create", "--dry-run"));
        assertThat(dry.out()).contains("18 of 18 Recourse topics missing", "would run: kafka-topics.sh");
        assertThat(Cli.run(args("topics", "check")).exitCode()).isEqualTo(1);

        Cli.Run create = Cli.run(args("topics", "create"));
        assertThat(create.exitCode()).as(create.out() + create.err()).isZero();
        assertThat(create.out()).contains("created 18 topic(s)", "all Recourse topics are in order");
        Cli.Run again = Cli.run(args("topics", "create"));
        assertThat(again.exitCode()).isZero();
        assertThat(again.out()).contains("0 of 18 Recourse topics missing").doesNotContain("creating:");
    }

    @Test
    @Order(2)
    void startup_fails_at_once_naming_every_missing_or_misconfigured_topic_with_its_fix() throws Exception {
        assertThat(Cli.run(args("topics", "create")).exitCode()).isIn(0, 1);
        ConfigResource recoveryState = new ConfigResource(ConfigResource.Type.TOPIC, "recourse.kanban.recovery-state");
        try (Admin admin = admin()) {
            admin.deleteTopics(List.of("recourse.office.parked-runs")).all().get();
            admin.incrementalAlterConfigs(Map.of(recoveryState,
                    List.of(new AlterConfigOp(new ConfigEntry("cleanup.policy", "delete"), AlterConfigOp.OpType.SET)))).all().get();
            // Both calls return once the controller has them; the broker that answers the startup check
            // applies them a moment later. A check in between finds every topic in order and starts Streams,
            // whose member stays in group "recourse" and makes the reset tests below see an active member.
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() ->
                    !admin.listTopics().names().get().contains("recourse.office.parked-runs")
                            && "delete".equals(admin.describeConfigs(List.of(recoveryState)).all().get().get(recoveryState)
                                    .get("cleanup.policy").value()));
        }
        RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.BOOTSTRAP_SERVERS, broker.bootstrapServers(),
                RecourseConfig.STATE_DIR, stateDir.toString(), RecourseConfig.METRICS_PORT, "-1"));
        assertThatThrownBy(() -> {
            try (RecourseRunner started = new RecourseRunner(config)) {
                started.start(); // should it start, closing it keeps Streams out of the later tests
            }
        })
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("2 Recourse topics are missing or misconfigured")
                .hasMessageContaining("recourse.office.parked-runs: missing")
                .hasMessageContaining("recourse.kanban.recovery-state: cleanup.policy=delete, needs compact")
                .hasMessageContaining("kafka-configs.sh --bootstrap-server " + broker.bootstrapServers()
                        + " --alter --entity-type topics --entity-name recourse.kanban.recovery-state --add-config cleanup.policy=compact")
                .hasMessageContaining("recourse topics create");
    }

    @Test
    @Order(3)
    void produce_validates_every_document_first_and_keys_each_as_its_topic_wants() throws Exception {
        assertThat(Cli.run(args("topics", "create")).exitCode()).isIn(0, 1); // whatever the tests before left
        Path bad = Files.writeString(stateDir.resolve("bad.jsonl"),
                "{\"session_id\":\"s-1\",\"action\":\"retry_nw\",\"occurred_at\":\"2026-06-01T12:00:00Z\"}\n");
        Cli.Run refused = Cli.run(args("produce", "session-controls", bad.toString()));
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).contains("document 1 (line 1): schema validation (session-control.schema.json): /action", "nothing sent");

        Cli.Run sent = Cli.run(args("produce", "recourse.session-controls", "examples/session-control.retry_now.json"));
        assertThat(sent.exitCode()).as(sent.err()).isZero();
        assertThat(sent.out()).contains("sent 1 document(s) to recourse.session-controls");

        Cli.Run frames = Cli.run(args("produce", "agent-frames", "examples/frames/claude-529.jsonl"));
        assertThat(frames.exitCode()).as(frames.err()).isZero();

        Cli.Run missing = Cli.run(args("produce", "session-controls", "examples/session-control.retry_now.json",
                "--set", "recourse.topic.session-controls=not-created-controls"));
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err().strip()).isEqualTo("nothing sent: topic not-created-controls does not exist on "
                + broker.bootstrapServers() + "; create the Recourse topics with `recourse topics create`");

        List<ConsumerRecord<String, String>> records = readAll("recourse.session-controls");
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.key()).isEqualTo("demo-claude-529");
            assertThat(Cli.JSON.readTree(r.value()).path("action").asText()).isEqualTo("retry_now");
        });
        assertThat(readAll("recourse.agent-frames")).hasSize(4).allSatisfy(r -> assertThat(r.key()).isEqualTo("example-claude-529/1"));
    }

    @Test
    @Order(4)
    void reset_asks_first_then_runs_kafkas_reset_tool_and_deletes_the_local_state() throws Exception {
        assertThat(Cli.run(args("topics", "create")).exitCode()).isIn(0, 1);
        Path task = Files.createDirectories(stateDir.resolve("streams").resolve("recourse").resolve("0_0"));
        assertThat(groupMembers()).as("members of group recourse left by an earlier test").isZero();

        Cli.Run declined = Cli.withStdin("n\n", args("reset"));
        assertThat(declined.exitCode()).isEqualTo(1);
        assertThat(declined.out()).contains("not reset");
        assertThat(task).exists();

        Cli.Run reset = Cli.run(args("reset", "--yes"));
        assertThat(reset.exitCode()).as(reset.out() + reset.err()).isZero();
        assertThat(reset.out()).contains("running: kafka-streams-application-reset.sh", "--application-id recourse",
                "local state deleted");
        assertThat(task).doesNotExist();
    }

    @Test
    @Order(5)
    void reset_refuses_in_one_line_while_the_group_has_members_and_a_dry_run_changes_nothing() throws Exception {
        assertThat(Cli.run(args("topics", "create")).exitCode()).isIn(0, 1);
        Path task = Files.createDirectories(stateDir.resolve("streams").resolve("recourse").resolve("0_1"));
        assertThat(groupMembers()).as("members of group recourse left by an earlier test").isZero();
        // the group protocol Kafka Streams uses by default (classic), as a running Recourse instance would
        try (KafkaConsumer<String, String> member = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers(), ConsumerConfig.GROUP_ID_CONFIG, "recourse",
                ConsumerConfig.GROUP_PROTOCOL_CONFIG, StreamsConfig.DEFAULT_GROUP_PROTOCOL), new StringDeserializer(), new StringDeserializer())) {
            member.subscribe(List.of("recourse.agent-frames"));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
                member.poll(Duration.ofMillis(100));
                return !member.assignment().isEmpty();
            });
            Cli.Run refused = Cli.run(args("reset", "--yes"));
            assertThat(refused.exitCode()).isEqualTo(1);
            assertThat(refused.err().strip()).isEqualTo("not reset: consumer group recourse has 1 active member(s) on /127.0.0.1;"
                    + " stop every Recourse instance of application.id=recourse first (--force removes members that did not leave,"
                    + " e.g. static members)");
            assertThat(refused.out()).doesNotContain("running:");
            assertThat(task).exists();
        }
        // the probe left the group on close; wait until the coordinator shows it gone before the next reset
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> groupMembers() == 0);
        Cli.Run dry = Cli.run(args("reset", "--dry-run"));
        assertThat(dry.exitCode()).as(dry.out() + dry.err()).isZero();
        assertThat(dry.out()).contains("(dry run)", "input topics: would be reset to the earliest offset: recourse.agent-frames",
                "-changelog): would be deleted", ": would be deleted", "--dry-run");
        List<String> lines = dry.out().strip().lines().toList();
        assertThat(lines.get(lines.size() - 1)).isEqualTo("dry run: nothing changed");
        assertThat(task).exists();
    }

    @Test
    @Order(6)
    void without_bootstrap_servers_tail_reads_the_embedded_broker_of_the_running_instance_like_produce() throws Exception {
        Path dir = Files.createDirectories(stateDir.resolve("embedded"));
        String[] state = {"--set", "state.dir=" + dir, "--set", "recourse.topic.partitions=1"};
        // what `recourse run` starts without bootstrap.servers: the broker of <state.dir>/broker, with its port file
        try (EmbeddedKafkaBroker running = EmbeddedKafkaBroker.forConfig(RecourseConfig.of(Map.of(RecourseConfig.STATE_DIR,
                dir.toString()))).start()) {
            assertThat(Cli.run(concat(new String[] {"topics", "create"}, state)).exitCode()).isZero();
            Cli.Run sent = Cli.run(concat(new String[] {"produce", "session-controls", "examples/session-control.retry_now.json"}, state));
            assertThat(sent.exitCode()).as(sent.err()).isZero();

            Cli.Run tail = Cli.run(concat(new String[] {"tail", "recourse.session-controls", "--from-beginning"}, state));
            assertThat(tail.exitCode()).as(tail.err()).isZero();
            assertThat(tail.objects()).singleElement().satisfies(r -> {
                assertThat(r.path("key").asText()).isEqualTo("demo-claude-529");
                assertThat(r.path("value").path("action").asText()).isEqualTo("retry_now");
            });
            Cli.Run missing = Cli.run(concat(new String[] {"tail", "no-such-topic"}, state));
            assertThat(missing.exitCode()).isEqualTo(1);
            assertThat(missing.err().strip()).isEqualTo("no such topic: no-such-topic on " + running.bootstrapServers());
        }
    }

    private static String[] concat(String[] a, String[] b) {
        List<String> out = new ArrayList<>(List.of(a));
        out.addAll(List.of(b));
        return out.toArray(String[]::new);
    }

    /** The members of consumer group {@code recourse} now; 0 when the group does not exist. */
    private static int groupMembers() throws InterruptedException {
        try (Admin admin = admin()) {
            return admin.describeConsumerGroups(List.of("recourse")).all().get().get("recourse").members().size();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return 0;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    private static List<ConsumerRecord<String, String>> readAll(String topic) {
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers()), new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            List<ConsumerRecord<String, String>> out = new ArrayList<>();
            while (parts.stream().anyMatch(p -> c.position(p) < end.get(p))) {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            return out;
        }
    }
}
