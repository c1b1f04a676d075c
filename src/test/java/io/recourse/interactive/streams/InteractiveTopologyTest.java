package io.recourse.interactive.streams;

import static io.recourse.evidence.streams.SessionEvents.completed;
import static io.recourse.evidence.streams.SessionEvents.expired;
import static io.recourse.evidence.streams.SessionEvents.failed;
import static io.recourse.evidence.streams.SessionEvents.retry;
import static io.recourse.evidence.streams.SessionEvents.started;
import static io.recourse.evidence.streams.SessionEvents.startedRetry;
import static io.recourse.evidence.streams.SessionEvents.stopped;
import static io.recourse.evidence.streams.SessionEvents.user;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.avro.SessionStateValue;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.SessionEvents;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.InteractiveTimerKind;
import io.recourse.interactive.JitterSource;
import io.recourse.interactive.RecoveryReason;
import io.recourse.interactive.RecoveryState;
import io.recourse.interactive.RecoveryStatus;
import io.recourse.interactive.RetryCommand;
import io.recourse.interactive.TimerEntry;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.DeadLetters;
import io.recourse.kit.Topics;
import io.recourse.taxonomy.Code;
import io.recourse.topology.RecourseTopology;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.BytesDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interactive owner on Kafka Streams (DESIGN §6, §8), driven by TopologyTestDriver's wall clock:
 * the dispatch protocol, timers, controls, expiry, dead letters, and the changelogs that make it
 * durable. Jitter is fixed at the midpoint, so attempt 1 is due exactly 5 s after the failure.
 */
public class InteractiveTopologyTest {

    public static final String APP = "recourse-interactive-test";
    public static final String SESSIONS_CHANGELOG = APP + "-" + InteractiveTopology.SESSIONS_STORE + "-changelog";
    public static final String TIMERS_CHANGELOG = APP + "-" + InteractiveTopology.TIMERS_STORE + "-changelog";
    public static final Instant T0 = Instant.parse("2026-11-30T08:00:00Z");
    public static final String S = "session-1";

    public final RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.APPLICATION_ID, APP));
    public final Topics topics = Topics.from(config);
    public TopologyTestDriver driver;
    public TestInputTopic<String, io.recourse.avro.SessionEvent> events;
    public TestInputTopic<byte[], byte[]> controls;
    public TestInputTopic<byte[], byte[]> acks;
    public TestOutputTopic<String, io.recourse.avro.RetryCommand> commands;
    public TestOutputTopic<String, io.recourse.avro.RecoveryState> states;
    public TestOutputTopic<byte[], byte[]> dlq;
    public TestOutputTopic<String, SessionStateValue> sessionsChangelog;
    public TestOutputTopic<Bytes, byte[]> timersChangelog;
    public Instant wallClock = T0;
    /** Every RecoveryState read so far (null = tombstone), in order. */
    public final List<RecoveryState> shown = new ArrayList<>();
    @TempDir
    public Path stateDir;

    @BeforeEach
    public void start() {
        start(new InteractiveRecoveryPolicy(InteractiveTopology.interactiveConfig(config), JitterSource.fixed(0.5)));
    }

    public void start(InteractiveRecoveryPolicy policy) {
        start(config, policy);
    }

    public void start(RecourseConfig cfg, InteractiveRecoveryPolicy policy) {
        if (driver != null) {
            driver.close();
        }
        Topology topology = InteractiveTestTopology.build(cfg, policy);
        Properties props = new Properties();
        props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, APP, StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092",
                StreamsConfig.STATE_DIR_CONFIG, stateDir.toString(),
                StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, "true"));
        driver = new TopologyTestDriver(topology, props, T0);
        wallClock = T0;
        events = driver.createInputTopic(InteractiveTestTopology.SESSION_EVENTS, new StringSerializer(),
                AvroSerde.of(io.recourse.avro.SessionEvent.class));
        controls = driver.createInputTopic(topics.sessionControls().name(), new ByteArraySerializer(), new ByteArraySerializer());
        acks = driver.createInputTopic(topics.kanbanDispatchAcks().name(), new ByteArraySerializer(), new ByteArraySerializer());
        commands = driver.createOutputTopic(topics.kanbanRetryCommands().name(), new StringDeserializer(),
                AvroSerde.of(io.recourse.avro.RetryCommand.class));
        states = driver.createOutputTopic(topics.kanbanRecoveryState().name(), new StringDeserializer(),
                AvroSerde.of(io.recourse.avro.RecoveryState.class));
        dlq = driver.createOutputTopic(topics.dlq().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        sessionsChangelog = driver.createOutputTopic(SESSIONS_CHANGELOG, new StringDeserializer(), AvroSerde.of(SessionStateValue.class));
        timersChangelog = driver.createOutputTopic(TIMERS_CHANGELOG, new BytesDeserializer(), new ByteArrayDeserializer());
    }

    @AfterEach
    public void stop() {
        driver.close();
    }

    // ------------------------------------------------------------------ dispatch protocol

    @Test
    public void a_scheduled_retry_is_commanded_at_retry_at_and_not_before() {
        userTurnFails(S, 1);
        RecoveryState scheduled = lastState();
        assertThat(scheduled.status()).isEqualTo(RecoveryStatus.SCHEDULED);
        assertThat(scheduled.retryAt()).isEqualTo(T0.plusSeconds(5));

        advance(Duration.ofMillis(4_999));
        assertThat(commands.isEmpty()).as("no command before retry_at").isTrue();

        advance(Duration.ofMillis(1));
        RetryCommand command = onlyCommand();
        assertThat(command.issuedAt()).isEqualTo(scheduled.retryAt());
        assertThat(command.retryAt()).isEqualTo(scheduled.retryAt());
        assertThat(command.expectedGeneration()).isEqualTo(1);
        assertThat(command.attempt()).isEqualTo(1);
        assertThat(command.promptDigest()).isEqualTo(SessionEvents.promptDigest(S, 1));
    }

    @Test
    public void the_command_and_the_dispatching_state_are_written_in_the_same_step() {
        userTurnFails(S, 1);
        readStates();

        advance(Duration.ofSeconds(5));

        assertThat(commands.getQueueSize()).isEqualTo(1);
        List<RecoveryState> written = readStates();
        assertThat(written).extracting(RecoveryState::status).containsExactly(RecoveryStatus.DISPATCHING);
        assertThat(lastStored(S).getStatus()).isEqualTo("dispatching");
    }

    @Test
    public void a_dispatched_ack_moves_the_chain_to_awaiting_outcome() {
        RetryCommand command = dispatchFirstRetry();

        ack(command, "dispatched", null, 2);

        assertThat(lastState().status()).isEqualTo(RecoveryStatus.AWAITING_OUTCOME);
        assertThat(lastStored(S).getStatus()).isEqualTo("awaiting_outcome");
    }

    @Test
    public void a_turn_started_carrying_the_command_id_confirms_the_dispatch_without_an_ack() {
        RetryCommand command = dispatchFirstRetry();

        event(startedRetry(retry(S, 2, command), command, now()));

        assertThat(lastState().status()).isEqualTo(RecoveryStatus.AWAITING_OUTCOME);
        advance(Duration.ofSeconds(60));
        assertThat(lastState().status()).as("no dispatch timeout once confirmed").isEqualTo(RecoveryStatus.AWAITING_OUTCOME);
    }

    @Test
    public void a_failed_ack_makes_the_chain_manual_with_its_reason() {
        RetryCommand command = dispatchFirstRetry();

        ack(command, "failed", "superseded", null);

        RecoveryState state = lastState();
        assertThat(state.status()).isEqualTo(RecoveryStatus.MANUAL);
        assertThat(state.reason()).isEqualTo(RecoveryReason.SUPERSEDED);
    }

    @Test
    public void no_confirmation_within_the_dispatch_timeout_makes_the_chain_manual_dispatch_unconfirmed() {
        RetryCommand command = dispatchFirstRetry();

        advance(Duration.ofMillis(29_999));
        assertThat(lastState().status()).isEqualTo(RecoveryStatus.DISPATCHING);

        advance(Duration.ofMillis(1));
        RecoveryState state = lastState();
        assertThat(state.status()).isEqualTo(RecoveryStatus.MANUAL);
        assertThat(state.reason()).isEqualTo(RecoveryReason.DISPATCH_UNCONFIRMED);
        assertThat(now()).isEqualTo(command.issuedAt().plusSeconds(30));
        assertThat(commands.isEmpty()).as("never a second command for the attempt").isTrue();
    }

    @Test
    public void a_dispatched_ack_after_the_timeout_leaves_the_chain_manual_dispatched_late() {
        RetryCommand command = dispatchFirstRetry();
        advance(Duration.ofSeconds(30));

        ack(command, "dispatched", null, 2);

        RecoveryState state = lastState();
        assertThat(state.status()).isEqualTo(RecoveryStatus.MANUAL);
        assertThat(state.reason()).isEqualTo(RecoveryReason.DISPATCHED_LATE);
        assertThat(commands.isEmpty()).isTrue();
    }

    @Test
    public void a_failed_retry_generation_continues_the_chain_and_a_successful_one_disarms_it() {
        RetryCommand first = dispatchFirstRetry();
        ack(first, "dispatched", null, 2);
        TurnContext g2 = retry(S, 2, first);
        event(startedRetry(g2, first, now()));
        event(failed(g2, Code.PROVIDER_OVERLOADED, now()));
        RecoveryState second = lastState();
        assertThat(second.status()).isEqualTo(RecoveryStatus.SCHEDULED);
        assertThat(second.attempt()).isEqualTo(2);

        advanceTo(second.retryAt());
        RetryCommand command2 = onlyCommand();
        assertThat(command2.attempt()).isEqualTo(2);
        assertThat(command2.expectedGeneration()).isEqualTo(2);
        assertThat(command2.commandId()).isNotEqualTo(first.commandId());

        TurnContext g3 = retry(S, 3, command2);
        event(startedRetry(g3, command2, now()));
        event(completed(g3, now()));
        RecoveryState done = lastState();
        assertThat(done.status()).isEqualTo(RecoveryStatus.DISARMED);
        assertThat(done.reason()).isEqualTo(RecoveryReason.RETRY_SUCCEEDED);
    }

    @Test
    public void a_turn_expired_of_the_retry_generation_makes_the_chain_manual_outcome_unknown() {
        RetryCommand command = dispatchFirstRetry();
        TurnContext g2 = retry(S, 2, command);
        event(startedRetry(g2, command, now()));

        event(expired(g2, now()));

        assertThat(lastState().reason()).isEqualTo(RecoveryReason.OUTCOME_UNKNOWN);
        assertThat(lastState().status()).isEqualTo(RecoveryStatus.MANUAL);
    }

    @Test
    public void a_dispatched_retry_without_any_outcome_becomes_manual_outcome_timeout() {
        RetryCommand command = dispatchFirstRetry();
        ack(command, "dispatched", null, 2);
        assertThat(lastState().status()).isEqualTo(RecoveryStatus.AWAITING_OUTCOME);
        assertThat(timers()).extracting(TimerEntry::kind).contains(io.recourse.interactive.InteractiveTimerKind.OUTCOME_TIMEOUT);

        advanceTo(command.issuedAt().plus(config.outcomeTimeout()).minusMillis(1));
        assertThat(lastState().status()).isEqualTo(RecoveryStatus.AWAITING_OUTCOME);

        advance(Duration.ofMillis(1));
        RecoveryState state = lastState();
        assertThat(state.status()).isEqualTo(RecoveryStatus.MANUAL);
        assertThat(state.reason()).isEqualTo(RecoveryReason.OUTCOME_TIMEOUT);
        assertThat(commands.isEmpty()).isTrue();
        assertThat(timers()).extracting(TimerEntry::kind).doesNotContain(io.recourse.interactive.InteractiveTimerKind.OUTCOME_TIMEOUT);
    }

    @Test
    public void an_outcome_before_the_outcome_timeout_cancels_it() {
        RetryCommand command = dispatchFirstRetry();
        TurnContext g2 = retry(S, 2, command);
        event(startedRetry(g2, command, now()));
        event(completed(g2, now()));
        assertThat(timers()).extracting(TimerEntry::kind).doesNotContain(io.recourse.interactive.InteractiveTimerKind.OUTCOME_TIMEOUT);

        advance(config.outcomeTimeout());
        assertThat(lastState().reason()).isEqualTo(RecoveryReason.RETRY_SUCCEEDED);
    }

    @Test
    public void a_retry_due_while_the_task_settles_after_start_never_fires_past_a_newer_prompt() {
        start(config.with(RecourseConfig.INTERACTIVE_START_SETTLE_MS, "10000"),
                new InteractiveRecoveryPolicy(InteractiveTopology.interactiveConfig(config), JitterSource.fixed(0.5)));
        userTurnFails(S, 1); // retry_at = T0 + 5 s, inside the 10 s settle after the task started at T0
        advance(Duration.ofSeconds(6));
        assertThat(commands.isEmpty()).as("held while the task settles").isTrue();

        event(started(user(S, 2), now())); // the newer prompt, applied before the retry can fire
        advance(Duration.ofSeconds(5));

        assertThat(commands.isEmpty()).as("never replays the older prompt").isTrue();
        assertThat(lastState().reason()).isEqualTo(RecoveryReason.NEW_PROMPT);
    }

    @Test
    public void a_retry_held_by_the_start_settle_fires_when_it_ends() {
        start(config.with(RecourseConfig.INTERACTIVE_START_SETTLE_MS, "10000"),
                new InteractiveRecoveryPolicy(InteractiveTopology.interactiveConfig(config), JitterSource.fixed(0.5)));
        userTurnFails(S, 1);
        advance(Duration.ofMillis(9_999));
        assertThat(commands.isEmpty()).isTrue();

        advance(Duration.ofMillis(1));
        assertThat(onlyCommand().issuedAt()).isEqualTo(T0.plusSeconds(10));
    }

    @Test
    public void the_punctuator_fires_due_retries_in_retry_at_order() {
        TurnContext later = user("later", 1);
        event(started(later, now()));
        event(failed(later, SessionEvents.classification(Code.RATE_LIMITED, T0.plusSeconds(12)), true, now()));
        userTurnFails("sooner", 1);

        advance(Duration.ofSeconds(15));

        assertThat(readCommands()).extracting(RetryCommand::sessionId).containsExactly("sooner", "later");
    }

    @Test
    public void a_retry_overdue_by_more_than_the_staleness_bound_becomes_manual_instead_of_firing() {
        userTurnFails(S, 1);

        advance(Duration.ofMinutes(5).plusSeconds(6)); // e.g. the instance was down for five minutes

        RecoveryState state = lastState();
        assertThat(state.status()).isEqualTo(RecoveryStatus.MANUAL);
        assertThat(state.reason()).isEqualTo(RecoveryReason.OVERDUE_AFTER_RESTART);
        assertThat(commands.isEmpty()).isTrue();
    }

    // ------------------------------------------------------------------ controls

    @Test
    public void retry_now_issues_the_command_at_once_and_removes_the_countdown_timer() {
        userTurnFails(S, 1);
        advance(Duration.ofSeconds(1));

        control(S, "retry_now", 1);

        RetryCommand command = onlyCommand();
        assertThat(command.issuedAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(lastState().status()).isEqualTo(RecoveryStatus.DISPATCHING);
        assertThat(timers()).extracting(TimerEntry::kind).doesNotContain(InteractiveTimerKind.RETRY);
        advance(Duration.ofSeconds(10));
        assertThat(commands.isEmpty()).as("the countdown never fires a second command").isTrue();
    }

    @Test
    public void cancel_retry_disarms_the_countdown() {
        userTurnFails(S, 1);

        control(S, "cancel_retry", 1);

        assertThat(lastState().status()).isEqualTo(RecoveryStatus.CANCELLED);
        assertThat(timers()).extracting(TimerEntry::kind).doesNotContain(InteractiveTimerKind.RETRY);
        advance(Duration.ofSeconds(10));
        assertThat(commands.isEmpty()).isTrue();
    }

    @Test
    public void a_new_user_prompt_during_the_countdown_disarms_it() {
        userTurnFails(S, 1);

        event(started(user(S, 2), now()));

        RecoveryState state = lastState();
        assertThat(state.status()).isEqualTo(RecoveryStatus.DISARMED);
        assertThat(state.reason()).isEqualTo(RecoveryReason.NEW_PROMPT);
        advance(Duration.ofSeconds(10));
        assertThat(commands.isEmpty()).isTrue();
    }

    @Test
    public void a_control_for_an_older_generation_is_ignored() {
        userTurnFails(S, 1);
        event(started(user(S, 2), now()));
        event(failed(user(S, 2), Code.PROVIDER_OVERLOADED, now()));
        readStates();

        control(S, "cancel_retry", 1);

        assertThat(states.isEmpty()).as("no state change for a stale control").isTrue();
        advance(Duration.ofSeconds(5));
        assertThat(onlyCommand().expectedGeneration()).isEqualTo(2);
    }

    @Test
    public void model_changed_and_start_fresh_disarm_the_chain() {
        userTurnFails(S, 1);
        control(S, "model_changed", null);
        assertThat(lastState().reason()).isEqualTo(RecoveryReason.MODEL_CHANGED);

        userTurnFails("session-2", 1);
        control("session-2", "start_fresh", 1);
        assertThat(lastState().reason()).isEqualTo(RecoveryReason.START_FRESH);

        advance(Duration.ofSeconds(10));
        assertThat(commands.isEmpty()).isTrue();
        assertThat(lastStored(S).getStatus()).isEqualTo("disarmed");
        assertThat(lastStored("session-2").getStatus()).isEqualTo("disarmed");
    }

    @Test
    public void a_session_stop_disarms_the_chain() {
        userTurnFails(S, 1);

        event(stopped(S, now()));

        assertThat(lastState().reason()).isEqualTo(RecoveryReason.SESSION_STOPPED);
        advance(Duration.ofSeconds(10));
        assertThat(commands.isEmpty()).isTrue();
    }

    // ------------------------------------------------------------------ expiry and durability

    @Test
    public void an_idle_session_expires_with_a_tombstone_on_the_recovery_state_and_the_changelog() {
        userTurnFails(S, 1);
        control(S, "cancel_retry", 1);
        readStates();

        advance(Duration.ofDays(7).minusSeconds(1));
        assertThat(states.isEmpty()).as("not before 7 days").isTrue();
        advance(Duration.ofSeconds(1));

        TestRecord<String, io.recourse.avro.RecoveryState> tombstone = states.readRecord();
        assertThat(tombstone.key()).isEqualTo(S);
        assertThat(tombstone.value()).isNull();
        List<TestRecord<String, SessionStateValue>> log = sessionsChangelog.readRecordsToList();
        assertThat(log.get(log.size() - 1).value()).as("changelog tombstone").isNull();
        assertThat(sessionStore().get(S)).isNull();
        assertThat(timers()).isEmpty();
    }

    @Test
    public void the_scheduled_state_and_its_timer_are_in_the_changelogs() {
        userTurnFails(S, 1);

        SessionStateValue stored = lastStored(S);
        assertThat(stored.getStatus()).isEqualTo("scheduled");
        assertThat(stored.getChain().getRetryAt()).isEqualTo(T0.plusSeconds(5));
        List<TimerEntry> logged = timersChangelog.readRecordsToList().stream()
                .filter(r -> r.value() != null).map(r -> TimerEntry.fromKey(r.key().get())).toList();
        assertThat(logged).contains(new TimerEntry(InteractiveTimerKind.RETRY, T0.plusSeconds(5), S));
    }

    @Test
    public void firing_a_timer_deletes_it_from_the_time_index_and_its_changelog() {
        userTurnFails(S, 1);
        timersChangelog.readRecordsToList();

        advance(Duration.ofSeconds(5));

        Bytes retryKey = Bytes.wrap(new TimerEntry(InteractiveTimerKind.RETRY, T0.plusSeconds(5), S).key());
        assertThat(timersChangelog.readRecordsToList())
                .anySatisfy(r -> {
                    assertThat(r.key()).isEqualTo(retryKey);
                    assertThat(r.value()).isNull();
                });
        assertThat(timers()).containsExactlyInAnyOrder(
                new TimerEntry(InteractiveTimerKind.DISPATCH_TIMEOUT, T0.plusSeconds(35), S),
                new TimerEntry(InteractiveTimerKind.SESSION_EXPIRY, T0.plus(Duration.ofDays(7)), S));
    }

    // ------------------------------------------------------------------ DESIGN §12 items 1–4

    @Test
    public void design_12_1_second_scale_retries_are_jittered_per_session() {
        start(new InteractiveRecoveryPolicy(InteractiveTopology.interactiveConfig(config), JitterSource.hashed()));
        List<Instant> retryAts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            userTurnFails("jitter-" + i, 1);
            retryAts.add(lastState().retryAt());
        }

        assertThat(retryAts).allSatisfy(at -> assertThat(at).isBetween(T0.plusSeconds(4), T0.plusSeconds(6)));
        assertThat(retryAts.stream().distinct().count()).as("retry_at differs between sessions").isGreaterThan(1);
    }

    @Test
    public void design_12_2_a_short_hint_bounds_the_delay_from_below_and_never_shortens_it() {
        TurnContext shortHint = user("short-hint", 1);
        event(started(shortHint, now()));
        event(failed(shortHint, SessionEvents.classification(Code.RATE_LIMITED, T0.plusSeconds(2)), true, now()));
        assertThat(lastState().retryAt()).as("a 2 s hint does not replace the 5 s delay").isEqualTo(T0.plusSeconds(5));

        TurnContext longHint = user("long-hint", 1);
        event(started(longHint, now()));
        event(failed(longHint, SessionEvents.classification(Code.RATE_LIMITED, T0.plusSeconds(12)), true, now()));
        assertThat(lastState().retryAt()).as("a 12 s hint is a lower bound").isEqualTo(T0.plusSeconds(12));

        advance(Duration.ofSeconds(11));
        assertThat(readCommands()).extracting(RetryCommand::sessionId).containsExactly("short-hint");
        advance(Duration.ofSeconds(1));
        assertThat(readCommands()).extracting(RetryCommand::sessionId).containsExactly("long-hint");
    }

    @Test
    public void design_12_3_scheduled_and_dispatching_are_durable_and_a_new_prompt_disarms() {
        userTurnFails(S, 1);
        assertThat(lastStored(S).getStatus()).isEqualTo("scheduled");
        advance(Duration.ofSeconds(5));
        assertThat(lastStored(S).getStatus()).isEqualTo("dispatching");
        assertThat(lastStored(S).getChain().getIssuedAt()).isEqualTo(T0.plusSeconds(5));

        event(started(user(S, 2), now()));

        assertThat(lastStored(S).getStatus()).isEqualTo("disarmed");
        assertThat(lastState().reason()).isEqualTo(RecoveryReason.NEW_PROMPT);
    }

    @Test
    public void design_12_4_a_turn_that_is_not_replay_safe_is_never_retried() {
        TurnContext ctx = user(S, 1);
        event(started(ctx, now()));

        event(failed(ctx, SessionEvents.classification(Code.PROVIDER_OVERLOADED, null), false, now()));

        RecoveryState state = lastState();
        assertThat(state.status()).isEqualTo(RecoveryStatus.MANUAL);
        assertThat(state.reason()).isEqualTo(RecoveryReason.NOT_REPLAY_SAFE);
        advance(Duration.ofMinutes(2));
        assertThat(commands.isEmpty()).isTrue();
    }

    // ------------------------------------------------------------------ dead letters

    @Test
    public void a_control_that_is_not_json_goes_to_the_dlq_and_the_next_control_is_processed() {
        userTurnFails(S, 1);
        byte[] bad = bytes("{\"action\": cancel");

        controls.pipeInput(bytes(S), bad);
        control(S, "cancel_retry", 1);

        TestRecord<byte[], byte[]> dead = dlq.readRecord();
        assertThat(dead.key()).isEqualTo(bytes(S));
        assertThat(dead.value()).isEqualTo(bad);
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.ERROR_CODE)).isEqualTo(InteractiveJson.INVALID_JSON);
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.SOURCE_TOPIC)).isEqualTo(topics.sessionControls().name());
        assertThat(DeadLetters.header(dead.headers(), DeadLetters.SOURCE_OFFSET)).isEqualTo("0");
        assertThat(lastState().status()).isEqualTo(RecoveryStatus.CANCELLED);
    }

    @Test
    public void a_control_with_an_unknown_action_goes_to_the_dlq() {
        controls.pipeInput(bytes(S), bytes("{\"action\":\"retry_later\",\"session_id\":\"" + S + "\"}"));

        assertThat(DeadLetters.header(dlq.readRecord().headers(), DeadLetters.ERROR_CODE))
                .isEqualTo(InteractiveJson.INVALID_SESSION_CONTROL);
    }

    @Test
    public void an_ack_without_command_id_goes_to_the_dlq() {
        acks.pipeInput(bytes(S), bytes("{\"status\":\"dispatched\",\"session_id\":\"" + S + "\"}"));

        assertThat(DeadLetters.header(dlq.readRecord().headers(), DeadLetters.ERROR_CODE))
                .isEqualTo(InteractiveJson.INVALID_DISPATCH_ACK);
    }

    @Test
    public void a_control_keyed_by_another_session_goes_to_the_dlq() {
        controls.pipeInput(bytes("other"), bytes("{\"action\":\"cancel_retry\",\"session_id\":\"" + S + "\",\"occurred_at\":\"2026-11-30T08:00:00Z\"}"));

        assertThat(DeadLetters.header(dlq.readRecord().headers(), DeadLetters.ERROR_CODE))
                .isEqualTo("key_mismatch");
    }

    // ------------------------------------------------------------------ naming

    @Test
    public void every_store_processor_and_repartition_topic_has_an_explicit_name() {
        String description = InteractiveTestTopology.build(config).describe().toString();

        assertThat(description).contains(InteractiveTopology.SESSIONS_STORE, InteractiveTopology.TIMERS_STORE,
                InteractiveTopology.INTERACTIVE_PROCESSOR, InteractiveTopology.CONTROLS_PARSER, InteractiveTopology.ACKS_PARSER,
                InteractiveTopology.RETRY_COMMANDS_SINK, InteractiveTopology.RECOVERY_STATE_SINK,
                RecourseTopology.SESSION_EVENTS_BY_SESSION + "-repartition",
                RecourseTopology.SESSION_CONTROLS_BY_SESSION + "-repartition",
                RecourseTopology.KANBAN_ACKS_BY_SESSION + "-repartition");
        assertThat(description).doesNotContainPattern("KSTREAM-|KTABLE-|-\\d{10}");
    }

    // ------------------------------------------------------------------ record time (DESIGN §8)

    @Test
    public void a_failure_processed_late_is_published_with_the_instants_of_its_record() {
        TurnContext ctx = user(S, 1);
        Instant recorded = now();
        events.pipeInput(S, AvroMapping.toAvro(started(ctx, recorded)), recorded);
        advance(Duration.ofSeconds(40)); // the task lags (or replays after a crash): processed 40 s later
        events.pipeInput(S, AvroMapping.toAvro(failed(ctx, Code.PROVIDER_OVERLOADED, recorded)), recorded);

        List<TestRecord<String, io.recourse.avro.RecoveryState>> written = states.readRecordsToList();
        TestRecord<String, io.recourse.avro.RecoveryState> last = written.get(written.size() - 1);
        RecoveryState scheduled = InteractiveAvro.fromAvro(last.value());
        assertThat(scheduled.status()).isEqualTo(RecoveryStatus.SCHEDULED);
        assertThat(scheduled.retryAt()).as("5 s after the failure's record, not after its processing")
                .isEqualTo(recorded.plusSeconds(5));
        assertThat(scheduled.updatedAt()).isEqualTo(recorded);
        assertThat(last.timestamp()).isEqualTo(recorded.toEpochMilli());

        advance(Duration.ofSeconds(1)); // already due: fires at the next punctuation
        RetryCommand command = onlyCommand();
        assertThat(command.retryAt()).isEqualTo(recorded.plusSeconds(5));
        assertThat(command.issuedAt()).as("a dispatch is issued at processing time").isEqualTo(now());
    }

    // ------------------------------------------------------------------ helpers

    /** Session {@code s}'s user prompt {@code g} starts and fails with a transient, retryable code at now. */
    public void userTurnFails(String s, int g) {
        TurnContext ctx = user(s, g);
        event(started(ctx, now()));
        event(failed(ctx, Code.PROVIDER_OVERLOADED, now()));
    }

    /** Schedules attempt 1 for {@link #S} and lets it fire; returns its command. */
    public RetryCommand dispatchFirstRetry() {
        userTurnFails(S, 1);
        advance(Duration.ofSeconds(5));
        RetryCommand command = onlyCommand();
        assertThat(lastState().status()).isEqualTo(RecoveryStatus.DISPATCHING);
        return command;
    }

    public void event(SessionEvent e) {
        events.pipeInput(e.sessionId(), AvroMapping.toAvro(e), now());
    }

    public void control(String session, String action, Integer expectedGeneration) {
        String json = "{\"action\":\"" + action + "\",\"session_id\":\"" + session + "\""
                + (expectedGeneration == null ? "" : ",\"expected_generation\":" + expectedGeneration)
                + ",\"occurred_at\":\"" + now() + "\"}";
        controls.pipeInput(bytes(session), bytes(json), now());
    }

    public void ack(RetryCommand command, String status, String reason, Integer generation) {
        String json = "{\"command_id\":\"" + command.commandId() + "\",\"status\":\"" + status + "\""
                + (reason == null ? "" : ",\"reason\":\"" + reason + "\"")
                + ",\"session_id\":\"" + command.sessionId() + "\""
                + (generation == null ? "" : ",\"prompt_generation\":" + generation)
                + ",\"occurred_at\":\"" + now() + "\"}";
        acks.pipeInput(bytes(command.sessionId()), bytes(json), now());
    }

    public void advance(Duration d) {
        driver.advanceWallClockTime(d);
        wallClock = wallClock.plus(d);
    }

    public void advanceTo(Instant t) {
        advance(Duration.between(now(), t));
    }

    /** The driver's wall clock: what the processor reads as processing time. */
    public Instant now() {
        return wallClock;
    }

    public List<RetryCommand> readCommands() {
        return commands.readValuesToList().stream().map(InteractiveAvro::fromAvro).toList();
    }

    public RetryCommand onlyCommand() {
        List<RetryCommand> all = readCommands();
        assertThat(all).hasSize(1);
        return all.get(0);
    }

    public List<RecoveryState> readStates() {
        List<RecoveryState> out = new ArrayList<>();
        states.readValuesToList().forEach(v -> out.add(v == null ? null : InteractiveAvro.fromAvro(v)));
        shown.addAll(out);
        return out;
    }

    public RecoveryState lastState() {
        readStates();
        assertThat(shown).isNotEmpty();
        return shown.get(shown.size() - 1);
    }

    /** The latest value of {@code session} on the session store's changelog (not the store). */
    public SessionStateValue lastStored(String session) {
        SessionStateValue last = null;
        for (TestRecord<String, SessionStateValue> r : sessionsChangelog.readRecordsToList()) {
            changelog.put(r.key(), r.value());
        }
        last = changelog.get(session);
        assertThat(last).as("changelog value of %s", session).isNotNull();
        return last;
    }

    private final Map<String, SessionStateValue> changelog = new java.util.HashMap<>();

    public KeyValueStore<String, SessionStateValue> sessionStore() {
        return driver.getKeyValueStore(InteractiveTopology.SESSIONS_STORE);
    }

    public List<TimerEntry> timers() {
        KeyValueStore<Bytes, byte[]> store = driver.getKeyValueStore(InteractiveTopology.TIMERS_STORE);
        List<TimerEntry> out = new ArrayList<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            it.forEachRemaining(kv -> out.add(TimerEntry.fromKey(kv.key.get())));
        }
        return out;
    }

    public static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
