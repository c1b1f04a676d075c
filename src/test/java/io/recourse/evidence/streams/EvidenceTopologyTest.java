package io.recourse.evidence.streams;

import static io.recourse.evidence.streams.EvidenceDriver.T0;
import static io.recourse.evidence.streams.EvidenceDriver.chunk;
import static io.recourse.evidence.streams.EvidenceDriver.dynamic;
import static io.recourse.evidence.streams.EvidenceDriver.endTurn;
import static io.recourse.evidence.streams.EvidenceDriver.error;
import static io.recourse.evidence.streams.EvidenceDriver.frame;
import static io.recourse.evidence.streams.EvidenceDriver.prompt;
import static io.recourse.evidence.streams.EvidenceDriver.stderr;
import static io.recourse.evidence.streams.EvidenceDriver.type;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.avro.Classification;
import io.recourse.avro.SessionEvent;
import io.recourse.avro.StoredSignal;
import io.recourse.avro.TurnOutcome;
import io.recourse.avro.UnclassifiedEvidence;
import io.recourse.classification.TurnClassifier;
import io.recourse.evidence.EvidenceAssembler;
import io.recourse.evidence.Signal;
import io.recourse.evidence.SignalKind;
import io.recourse.kit.AvroSerde;
import io.recourse.taxonomy.Code;
import io.recourse.taxonomy.Confidence;
import io.recourse.taxonomy.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The evidence stage on the stream (DESIGN §4) through TopologyTestDriver: stores, expiry, outputs and keys. */
public class EvidenceTopologyTest {

    /** Recognizes an error whose message says "overloaded"; nothing else (so other failures get the fallback code). */
    public static final TurnClassifier CLASSIFIER = evidence -> {
        for (Signal s : evidence.signals()) {
            if (s.kind() == SignalKind.ERROR && s.field("message") != null && s.field("message").contains("overloaded")) {
                return Optional.of(new io.recourse.taxonomy.Classification(Code.PROVIDER_OVERLOADED, Confidence.HIGH,
                        "test.overloaded.v1", "test", Scope.PROVIDER, null, null, false));
            }
        }
        return Optional.empty();
    };

    private static final Duration IDLE = Duration.ofHours(2);
    private static final Duration RETENTION = Duration.ofHours(6);

    private final EvidenceDriver d = new EvidenceDriver(CLASSIFIER);

    @AfterEach
    public void close() {
        d.close();
    }

    @Test
    public void frames_arriving_out_of_seq_order_give_evidence_in_seq_order() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(stderr("s1", 1, 4, "fourth line"), T0.plusMillis(10));
        d.pipe(stderr("s1", 1, 2, "second line"), T0.plusMillis(20));
        d.pipe(stderr("s1", 1, 3, "third line"), T0.plusMillis(30));

        d.pipe(error("s1", 1, 5, "Internal error"), T0.plusMillis(40));

        UnclassifiedEvidence evidence = d.unclassified.readValue();
        assertThat(evidence.getSignals()).extracting(s -> s.getSeq()).containsExactly(2L, 3L, 4L, 5L);
    }

    @Test
    public void kept_signals_are_stored_under_their_signal_key_at_the_record_timestamp() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(stderr("s1", 1, 2, "connection reset"), T0.plusMillis(500));

        WindowStore<String, StoredSignal> store = d.driver.getWindowStore(EvidenceTopology.SIGNAL_STORE);
        List<Long> times = new ArrayList<>();
        try (KeyValueIterator<Windowed<String>, StoredSignal> it = store.fetch(EvidenceAssembler.signalRangeFrom("s1/1"),
                EvidenceAssembler.signalRangeTo("s1/1"), T0.toEpochMilli(), T0.plusSeconds(1).toEpochMilli())) {
            it.forEachRemaining(kv -> {
                assertThat(kv.key.key()).isEqualTo("s1/1#00000000000000000002");
                times.add(kv.key.window().start());
            });
        }
        assertThat(times).containsExactly(T0.plusMillis(500).toEpochMilli());
    }

    @Test
    public void a_duplicate_seq_is_ignored_and_counted() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(prompt("s1", 1, 1), T0.plusMillis(1));
        d.pipe(stderr("s1", 1, 2, "boom"), T0.plusMillis(2));
        d.pipe(stderr("s1", 1, 2, "boom"), T0.plusMillis(3));
        d.pipe(error("s1", 1, 3, "Internal error"), T0.plusMillis(4));

        assertThat(d.sessionEvents()).extracting(r -> type(r.value())).containsExactly("TurnStarted", "TurnOutcome");
        assertThat(d.unclassified.readValue().getSignals()).extracting(s -> s.getSeq()).containsExactly(2L, 3L);
        assertThat(d.count(EvidenceCounters.DUPLICATES)).isEqualTo(2.0);
    }

    @Test
    public void frames_after_close_are_counted_as_late_and_emit_nothing() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(error("s1", 1, 3, "Overloaded: provider overloaded"), T0.plusMillis(10));
        d.sessionEvents();
        d.classifications.readRecordsToList();

        d.pipe(stderr("s1", 1, 2, "an earlier seq, arriving late"), T0.plusMillis(20));
        d.pipe(error("s1", 1, 4, "Overloaded: provider overloaded"), T0.plusMillis(30));

        assertThat(d.sessionEvents()).isEmpty();
        assertThat(d.classifications.isEmpty()).isTrue();
        assertThat(d.count(EvidenceCounters.LATE_AFTER_CLOSE)).isEqualTo(2.0);
        assertThat(d.turn("s1/1").getLateAfterClose()).isEqualTo(2);
        assertThat(d.turn("s1/1").getClosed()).isEqualTo("closed");
    }

    @Test
    public void an_idle_turn_expires_on_stream_time_with_turn_expired_and_is_counted() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.sessionEvents();

        // stream time moves on through another session's frame
        d.pipe(prompt("s2", 1, 1), T0.plus(IDLE).plusSeconds(1));

        List<TestRecord<String, SessionEvent>> events = d.sessionEvents();
        assertThat(events).filteredOn(r -> type(r.value()).equals("TurnExpired")).singleElement().satisfies(r -> {
            assertThat(r.key()).isEqualTo("s1");
            assertThat(((io.recourse.avro.TurnExpired) r.value().getEvent()).getContext().getPromptGeneration()).isEqualTo(1);
        });
        assertThat(d.count(EvidenceCounters.EXPIRED)).isEqualTo(1.0);
        assertThat(d.turn("s1/1").getClosed()).isEqualTo("expired");
        assertThat(d.classifications.isEmpty()).isTrue();
    }

    @Test
    public void a_turn_that_saw_later_frames_is_re_armed_instead_of_expired() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(chunk("s1", 1, 2, "still working"), T0.plus(Duration.ofHours(1)));

        d.pipe(prompt("s2", 1, 1), T0.plus(IDLE).plusSeconds(1));

        assertThat(d.count(EvidenceCounters.EXPIRED)).isZero();
        assertThat(d.turn("s1/1").getClosed()).isNull();

        d.pipe(prompt("s3", 1, 1), T0.plus(Duration.ofHours(3)).plusSeconds(1));

        assertThat(d.count(EvidenceCounters.EXPIRED)).isEqualTo(1.0);
        assertThat(d.turn("s1/1").getClosed()).isEqualTo("expired");
    }

    @Test
    public void a_frame_after_expiry_is_late_and_never_reopens_the_turn() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(prompt("s2", 1, 1), T0.plus(IDLE).plusSeconds(1));
        d.sessionEvents();

        d.pipe(error("s1", 1, 2, "Overloaded"), T0.plus(IDLE).plusSeconds(2));

        assertThat(d.sessionEvents()).isEmpty();
        assertThat(d.count(EvidenceCounters.LATE_AFTER_CLOSE)).isEqualTo(1.0);
    }

    @Test
    public void a_closed_marker_entry_is_removed_once_the_retention_has_passed() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(endTurn("s1", 1, 2, "end_turn"), T0.plusSeconds(1));
        assertThat(d.turn("s1/1").getClosed()).isEqualTo("closed");

        d.pipe(prompt("s2", 1, 1), T0.plus(RETENTION));
        assertThat(d.turn("s1/1")).as("kept until the retention has passed").isNotNull();

        d.pipe(prompt("s3", 1, 1), T0.plus(RETENTION).plusSeconds(2));
        assertThat(d.turn("s1/1")).isNull();
    }

    @Test
    public void the_closed_marker_is_written_to_the_turn_store_changelog() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(error("s1", 1, 2, "Overloaded"), T0.plusSeconds(1));

        List<TestRecord<String, io.recourse.avro.TurnStateValue>> changelog = d.driver.createOutputTopic(
                EvidenceDriver.APP + "-" + EvidenceTopology.TURN_STORE + "-changelog",
                new org.apache.kafka.common.serialization.StringDeserializer(),
                AvroSerde.of(io.recourse.avro.TurnStateValue.class)).readRecordsToList();

        assertThat(changelog).isNotEmpty().allSatisfy(r -> assertThat(r.key()).isEqualTo("s1/1"));
        assertThat(changelog.get(changelog.size() - 1).value().getClosed()).isEqualTo("closed");
        assertThat(changelog.get(changelog.size() - 1).value().getClosedAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(changelog.get(changelog.size() - 1).value().getTerminal()).as("the marker keeps no terminal frame").isNull();
    }

    @Test
    public void a_turn_emits_started_progressed_and_outcome_keyed_by_session() {
        d.pipe(prompt("sess/with/slash", 3, 1), T0);
        d.pipe(frame("sess/with/slash", 3, 2, "acp_update", "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":"
                + "{\"sessionId\":\"a\",\"update\":{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"title\":\"Read\"}}}"), T0.plusSeconds(1));
        d.pipe(endTurn("sess/with/slash", 3, 3, "end_turn"), T0.plusSeconds(2));

        List<TestRecord<String, SessionEvent>> events = d.sessionEvents();
        assertThat(events).extracting(r -> type(r.value())).containsExactly("TurnStarted", "TurnProgressed", "TurnOutcome");
        assertThat(events).extracting(TestRecord::key).containsOnly("sess/with/slash");
        TurnOutcome outcome = (TurnOutcome) events.get(2).value().getEvent();
        assertThat(outcome.getOutcome()).isEqualTo("completed");
        assertThat(outcome.getToolActivitySeen()).isTrue();
        assertThat(events.get(2).timestamp()).isEqualTo(T0.plusSeconds(2).toEpochMilli());
    }

    @Test
    public void a_concrete_profile_turn_sends_nothing_to_the_routing_owner() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(endTurn("s1", 1, 2, "end_turn"), T0.plusSeconds(1));

        assertThat(d.byWorkspace.isEmpty()).isTrue();
    }

    @Test
    public void a_dynamic_profile_turn_also_reaches_the_routing_owner_keyed_by_workspace() {
        d.pipe(dynamic(prompt("s1", 1, 1), "ws-7"), T0);
        d.pipe(dynamic(error("s1", 1, 2, "Overloaded"), "ws-7"), T0.plusSeconds(1));

        List<TestRecord<String, SessionEvent>> routing = d.byWorkspace.readRecordsToList();
        assertThat(routing).extracting(r -> type(r.value())).containsExactly("TurnStarted", "TurnOutcome");
        assertThat(routing).extracting(TestRecord::key).containsOnly("ws-7");
        assertThat(d.sessionEvents()).extracting(TestRecord::key).containsOnly("s1");
    }

    @Test
    public void session_stopped_of_generation_zero_is_emitted_and_other_setup_traffic_is_dropped() {
        d.pipe(frame("s1", 0, 1, "acp_request", "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}"), T0);
        d.pipe(frame("s1", 0, 2, "lifecycle", "{\"event\":\"session_stopped\"}"), T0.plusSeconds(1));

        assertThat(d.sessionEvents()).extracting(r -> type(r.value())).containsExactly("SessionStopped");
        assertThat(d.turn("s1/0")).isNull();
    }

    @Test
    public void a_failed_turn_publishes_one_classification_keyed_by_session() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(error("s1", 1, 2, "Overloaded: the provider is overloaded"), T0.plusSeconds(1));

        List<TestRecord<String, Classification>> published = d.classifications.readRecordsToList();
        assertThat(published).singleElement().satisfies(r -> {
            assertThat(r.key()).isEqualTo("s1");
            assertThat(r.value().getCode()).isEqualTo("provider_overloaded");
            assertThat(r.value().getClass$()).isEqualTo("transient");
            assertThat(r.value().getRuleId()).isEqualTo("test.overloaded.v1");
            assertThat(r.value().getReplaySafe()).isTrue();
        });
        assertThat(d.unclassified.isEmpty()).as("a rule matched").isTrue();
    }

    @Test
    public void a_completed_or_cancelled_turn_publishes_no_classification() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(endTurn("s1", 1, 2, "end_turn"), T0.plusSeconds(1));
        d.pipe(prompt("s1", 2, 3), T0.plusSeconds(2));
        d.pipe(endTurn("s1", 2, 4, "cancelled"), T0.plusSeconds(3));

        assertThat(d.sessionEvents()).filteredOn(r -> type(r.value()).equals("TurnOutcome"))
                .extracting(r -> ((TurnOutcome) r.value().getEvent()).getOutcome()).containsExactly("completed", "cancelled");
        assertThat(d.classifications.isEmpty()).isTrue();
        assertThat(d.unclassified.isEmpty()).isTrue();
    }

    @Test
    public void a_failure_no_rule_matched_publishes_its_fallback_classification_and_sanitized_evidence() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(stderr("s1", 1, 2, "fatal: token sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789 rejected"), T0.plusSeconds(1));
        d.pipe(frame("s1", 1, 3, "exit", "{\"code\":1,\"signal\":null}"), T0.plusSeconds(2));

        assertThat(d.classifications.readValue().getCode()).isEqualTo("agent_runtime_error");
        UnclassifiedEvidence evidence = d.unclassified.readValue();
        assertThat(evidence.getCode()).isEqualTo("agent_runtime_error");
        assertThat(evidence.getSignals()).extracting(s -> s.getKind()).containsExactly("stderr", "exit");
        assertThat(evidence.getSignals().get(0).getFields().get("line")).doesNotContain("abcdefghijklmnopqrstuvwxyz0123456789");
    }

    @Test
    public void dropped_signals_beyond_the_bound_are_counted() {
        try (EvidenceDriver small = new EvidenceDriver(CLASSIFIER, java.util.Map.of(
                io.recourse.config.RecourseConfig.EVIDENCE_MAX_SIGNALS, "3"))) {
            small.pipe(prompt("s1", 1, 1), T0);
            for (int seq = 2; seq <= 6; seq++) {
                small.pipe(stderr("s1", 1, seq, "line " + seq), T0.plusSeconds(seq));
            }

            assertThat(small.count(EvidenceCounters.DROPPED_SIGNALS)).isEqualTo(2.0);
        }
    }

    @Test
    public void the_turn_store_round_trips_the_state_the_assembler_needs_across_frames() {
        d.pipe(prompt("s1", 1, 1), T0);
        d.pipe(chunk("s1", 1, 2, "Selected model is at capacity. Please try a different model."), T0.plusSeconds(1));

        Instant before = Instant.ofEpochMilli(d.turn("s1/1").getLastAppendAt().toEpochMilli());
        assertThat(before).isEqualTo(T0.plusSeconds(1));
        assertThat(d.turn("s1/1").getEffects()).singleElement()
                .satisfies(e -> assertThat(e.getText()).startsWith("Selected model is at capacity"));
        assertThat(d.turn("s1/1").getStarted()).isTrue();
    }
}
