package io.recourse.interactive.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.recourse.config.RecourseConfig;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.SessionEvents;
import io.recourse.interactive.ControlAction;
import io.recourse.interactive.InteractiveInput;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.JitterSource;
import io.recourse.interactive.RecoveryDecision;
import io.recourse.interactive.RetryCommand;
import io.recourse.interactive.SessionState;
import io.recourse.interactive.TimerEntry;
import io.recourse.interactive.TimerFired;
import io.recourse.kit.DeadLetters;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import io.recourse.taxonomy.Classification;
import io.recourse.taxonomy.Code;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

/**
 * The processor is plumbing (STYLE.md): for random interleavings of user turns, retry generations,
 * outcomes, acks, controls and wall-clock advances over two sessions, the topology writes exactly
 * the RetryCommands and RecoveryStates (and tombstones) that the pure policy decides when it is
 * driven directly with an in-memory state map and time index. QuickTheories with a fixed seed.
 */
public class InteractiveTopologyProperties {

    private static final long SEED = 0x5354_5245_414DL;
    private static final Instant T0 = Instant.parse("2026-11-30T08:00:00Z");
    private static final RecourseConfig CONFIG = RecourseConfig.of(Map.of(RecourseConfig.APPLICATION_ID, "recourse-interactive-props"));
    private static final InteractiveRecoveryPolicy POLICY = new InteractiveRecoveryPolicy(
            InteractiveTopology.interactiveConfig(CONFIG), JitterSource.hashed());

    @Test
    public void the_topology_writes_what_the_pure_policy_decides() {
        java.util.concurrent.atomic.AtomicInteger deadLettered = new java.util.concurrent.atomic.AtomicInteger();
        qt().withFixedSeed(SEED).withExamples(30)
                .forAll(lists().of(integers().between(0, 9_999)).ofSizeBetween(10, 60))
                .checkAssert(steps -> {
                    try (Run run = new Run()) {
                        steps.forEach(run::step);
                        run.assertSameOutputs();
                        deadLettered.addAndGet(run.expectedDeadLetters.size());
                    }
                });
        assertThat(deadLettered).as("some example sent a control with a negative expected_generation").hasPositiveValue();
    }

    /** One example: the topology under TopologyTestDriver and the policy driven directly, fed the same inputs. */
    private static final class Run implements AutoCloseable {

        final Path stateDir;
        final TopologyTestDriver driver;
        final TestInputTopic<String, io.recourse.avro.SessionEvent> events;
        final TestInputTopic<byte[], byte[]> controls;
        final TestInputTopic<byte[], byte[]> acks;
        final TestOutputTopic<String, io.recourse.avro.RetryCommand> commandsOut;
        final TestOutputTopic<String, io.recourse.avro.RecoveryState> statesOut;
        final TestOutputTopic<byte[], byte[]> dlq;
        // the reference: the policy with a map and a sorted time index
        final PolicyModel model = new PolicyModel(POLICY);
        final Map<String, SessionState> states = model.states;
        final List<KeyValue<String, RetryCommand>> expectedCommands = new ArrayList<>();
        final List<KeyValue<String, Object>> expectedStates = new ArrayList<>();
        final List<String> expectedDeadLetters = new ArrayList<>();
        final Map<String, Integer> nextGeneration = new HashMap<>();
        final Map<String, TurnContext> lastRetryTurn = new HashMap<>();
        Instant now = T0;

        Run() {
            try {
                stateDir = Files.createTempDirectory("recourse-props");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            Properties props = new Properties();
            props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, CONFIG.applicationId(),
                    StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092", StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()));
            driver = new TopologyTestDriver(InteractiveTestTopology.build(CONFIG, POLICY), props, T0);
            Topics topics = Topics.from(CONFIG);
            events = driver.createInputTopic(InteractiveTestTopology.SESSION_EVENTS, new StringSerializer(),
                    AvroSerde.of(io.recourse.avro.SessionEvent.class));
            controls = driver.createInputTopic(topics.sessionControls().name(), new ByteArraySerializer(), new ByteArraySerializer());
            acks = driver.createInputTopic(topics.kanbanDispatchAcks().name(), new ByteArraySerializer(), new ByteArraySerializer());
            commandsOut = driver.createOutputTopic(topics.kanbanRetryCommands().name(), new StringDeserializer(),
                    AvroSerde.of(io.recourse.avro.RetryCommand.class));
            statesOut = driver.createOutputTopic(topics.kanbanRecoveryState().name(), new StringDeserializer(),
                    AvroSerde.of(io.recourse.avro.RecoveryState.class));
            dlq = driver.createOutputTopic(topics.dlq().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }

        void step(int n) {
            int kind = PolicyModel.kind(n);
            int p = n / PolicyModel.STEP_KINDS.length;
            String s = "s" + (p % 2);
            SessionState st = states.get(s);
            String pending = st == null || st.chain() == null ? null : st.chain().pendingCommandId();
            switch (kind) {
                case 0 -> {
                    TurnContext ctx = SessionEvents.user(s, nextGen(s));
                    event(SessionEvents.started(ctx, now));
                    Code code = PolicyModel.failureCode(p);
                    Instant hint = code == Code.RATE_LIMITED ? now.plusSeconds(p % 50) : null;
                    Classification c = SessionEvents.classification(code, hint);
                    event(SessionEvents.failed(ctx, c, p % 7 != 0, now));
                }
                case 1 -> {
                    if (pending != null) {
                        TurnContext ctx = new TurnContext(s, nextGen(s), io.recourse.ingress.PromptOrigin.RETRY,
                                st.chain().expectedGeneration(), pending, io.recourse.ingress.ProfileKind.CONCRETE,
                                "claude-acp", "agent-profile-7", "exec-profile-3", SessionEvents.PROVIDER,
                                SessionEvents.MODEL, null, null, "task-1", false);
                        lastRetryTurn.put(s, ctx);
                        event(new io.recourse.evidence.TurnStarted(ctx, st.chain().promptDigest(),
                                st.chain().turnConfigDigest(), now));
                    }
                }
                case 2 -> {
                    TurnContext ctx = lastRetryTurn.remove(s);
                    if (ctx != null) {
                        switch (p % 4) {
                            case 0, 1 -> event(SessionEvents.failed(ctx, Code.PROVIDER_OVERLOADED, now));
                            case 2 -> event(SessionEvents.completed(ctx, now));
                            default -> event(SessionEvents.expired(ctx, now));
                        }
                    }
                }
                case 3, 4 -> {
                    if (pending != null) {
                        Integer generation = p % 2 == 0 ? null : nextGeneration.getOrDefault(s, 1);
                        String json = "{\"command_id\":\"" + pending + "\",\"status\":\""
                                + (kind == 3 ? "dispatched" : "failed") + "\",\"session_id\":\"" + s + "\""
                                + (kind == 4 && p % 2 == 0 ? ",\"reason\":\"superseded\"" : "")
                                + (generation == null ? "" : ",\"prompt_generation\":" + generation)
                                + ",\"occurred_at\":\"" + now + "\"}";
                        acks.pipeInput(bytes(s), bytes(json), now);
                        reference(s, InteractiveJson.ack(bytes(json)));
                    }
                }
                case 5 -> {
                    ControlAction action = ControlAction.values()[p % ControlAction.values().length];
                    int highest = st == null ? 0 : st.highestGeneration();
                    // generations are >= 0 (DESIGN §6.4): a stale expectation below the first generation
                    // is negative, which the strict parser refuses; that control must be dead-lettered
                    Integer expected = switch (p / 5 % 3) {
                        case 0 -> null;
                        case 1 -> highest;
                        default -> highest - 1;
                    };
                    String json = "{\"action\":\"" + action.wire() + "\",\"session_id\":\"" + s + "\""
                            + (expected == null ? "" : ",\"expected_generation\":" + expected)
                            + ",\"occurred_at\":\"" + now + "\"}";
                    controls.pipeInput(bytes(s), bytes(json), now);
                    if (expected != null && expected < 0) {
                        expectedDeadLetters.add(json);
                    } else {
                        reference(s, InteractiveJson.control(bytes(json)));
                    }
                }
                default -> advance(p % 25 == 0 ? Duration.ofSeconds(301) : Duration.ofSeconds(p % 40 + 1));
            }
        }

        int nextGen(String s) {
            int g = nextGeneration.getOrDefault(s, 1);
            nextGeneration.put(s, g + 1);
            return g;
        }

        void event(SessionEvent e) {
            events.pipeInput(e.sessionId(), AvroMapping.toAvro(e), now);
            reference(e.sessionId(), InteractiveInput.of(e));
        }

        void advance(Duration d) {
            now = now.plus(d);
            driver.advanceWallClockTime(d);
            for (TimerEntry due = model.pollDue(now); due != null; due = model.pollDue(now)) {
                reference(due.sessionId(), new TimerFired(due, T0));
            }
        }

        /** What the processor does, without Kafka. */
        void reference(String s, InteractiveInput input) {
            RecoveryDecision d = model.apply(s, input, now, now);
            d.commands().forEach(c -> expectedCommands.add(KeyValue.pair(s, c)));
            if (d.expired()) {
                expectedStates.add(KeyValue.pair(s, null));
            } else if (d.recoveryState() != null) {
                expectedStates.add(KeyValue.pair(s, d.recoveryState()));
            }
        }

        void assertSameOutputs() {
            List<KeyValue<String, RetryCommand>> commands = commandsOut.readKeyValuesToList().stream()
                    .map(kv -> KeyValue.pair(kv.key, InteractiveAvro.fromAvro(kv.value))).toList();
            List<KeyValue<String, Object>> recovery = new ArrayList<>();
            statesOut.readKeyValuesToList().forEach(kv -> recovery.add(KeyValue.pair(kv.key,
                    kv.value == null ? null : InteractiveAvro.fromAvro(kv.value))));
            List<org.apache.kafka.streams.test.TestRecord<byte[], byte[]>> dead = dlq.readRecordsToList();
            assertThat(dead).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
                    .as("controls with a negative expected_generation are dead-lettered").isEqualTo(expectedDeadLetters);
            assertThat(dead).extracting(r -> DeadLetters.header(r.headers(), DeadLetters.ERROR_CODE))
                    .allMatch(InteractiveJson.INVALID_SESSION_CONTROL::equals);
            assertThat(commands).isEqualTo(expectedCommands);
            assertThat(recovery).isEqualTo(expectedStates);
            assertThat(commands.stream().map(kv -> kv.value.commandId()).distinct().count())
                    .as("never two commands with one id").isEqualTo(commands.size());
        }

        @Override
        public void close() {
            driver.close();
            try (var files = Files.walk(stateDir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private static byte[] bytes(String s) {
        return Objects.requireNonNull(s).getBytes(StandardCharsets.UTF_8);
    }
}
