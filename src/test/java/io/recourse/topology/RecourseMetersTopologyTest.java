package io.recourse.topology;

import static io.recourse.evidence.streams.EvidenceDriver.endTurn;
import static io.recourse.evidence.streams.EvidenceDriver.error;
import static io.recourse.evidence.streams.EvidenceDriver.prompt;
import static io.recourse.evidence.streams.SessionEvents.failed;
import static io.recourse.evidence.streams.SessionEvents.started;
import static io.recourse.evidence.streams.SessionEvents.user;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.recourse.config.RecourseConfig;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.evidence.streams.EvidenceDriver;
import io.recourse.evidence.streams.EvidenceTopologyTest;
import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.evidence.streams.SessionEvents;
import io.recourse.ingress.ProfileKind;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.JitterSource;
import io.recourse.interactive.streams.InteractiveTestTopology;
import io.recourse.interactive.streams.InteractiveTopology;
import io.recourse.kit.AvroSerde;
import io.recourse.taxonomy.Code;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics the processors record (DESIGN §10, §12 item 11) through TopologyTestDriver on a
 * {@link SimpleMeterRegistry}: classifications by the evidence stage, Kanban policy decisions and
 * stale evidence by the interactive owner, and the lag of its fired timers.
 */
public class RecourseMetersTopologyTest {

    public static final String APP = "recourse-meters-test";
    public static final Instant T0 = Instant.parse("2026-11-30T08:00:00Z");

    @TempDir
    public Path stateDir;

    // ------------------------------------------------------------------ classifications (evidence stage)

    @Test
    public void a_failed_turn_counts_one_classification_tagged_with_code_class_confidence_rule_agent_type_and_provider() {
        try (EvidenceDriver d = new EvidenceDriver(EvidenceTopologyTest.CLASSIFIER)) {
            d.pipe(prompt("s1", 1, 1), EvidenceDriver.T0);
            d.pipe(error("s1", 1, 2, "Overloaded: the provider is overloaded"), EvidenceDriver.T0.plusSeconds(1));

            Counter c = d.registry.find(RecourseMeters.CLASSIFICATIONS).counter();
            assertThat(c).as("recourse.classifications registered").isNotNull();
            assertThat(c.getId().getTags()).extracting(t -> t.getKey() + "=" + t.getValue()).containsExactlyInAnyOrder(
                    "code=provider_overloaded", "class=transient", "confidence=high", "rule_id=test.overloaded.v1",
                    "agent_type=claude-acp", "provider=anthropic");
            assertThat(c.count()).isEqualTo(1.0);
        }
    }

    @Test
    public void a_completed_turn_counts_no_classification() {
        try (EvidenceDriver d = new EvidenceDriver(EvidenceTopologyTest.CLASSIFIER)) {
            d.pipe(prompt("s1", 1, 1), EvidenceDriver.T0);
            d.pipe(endTurn("s1", 1, 2, "end_turn"), EvidenceDriver.T0.plusSeconds(1));

            assertThat(d.registry.find(RecourseMeters.CLASSIFICATIONS).counters()).isEmpty();
        }
    }

    @Test
    public void an_evidence_timer_fired_centuries_late_records_the_largest_lag_and_the_turn_still_expires() {
        try (EvidenceDriver d = new EvidenceDriver(EvidenceTopologyTest.CLASSIFIER)) {
            d.pipe(prompt("s1", 1, 1), EvidenceDriver.T0); // an open turn: its idle entry is due at T0 + 2 h
            // stream time jumps by 7,973 years (a broker clock gone wrong): the lag's nanoseconds exceed a long
            d.pipe(prompt("s2", 1, 1), Instant.parse("9999-12-31T00:00:00Z"));

            Timer lag = d.registry.find(RecourseMeters.TIMER_LAG).tags("owner", "evidence", "kind", "idle").timer();
            assertThat(lag).isNotNull();
            assertThat(lag.count()).isEqualTo(1);
            assertThat(lag.max(TimeUnit.NANOSECONDS)).isEqualTo((double) Long.MAX_VALUE); // RecourseMeters.MAX_TIMER_LAG
            assertThat(d.count(io.recourse.evidence.streams.EvidenceCounters.EXPIRED)).isEqualTo(1.0);
        }
    }

    // ------------------------------------------------------------------ Kanban decisions (interactive owner)

    @Test
    public void a_retryable_failed_kanban_turn_counts_an_auto_retry_decision() {
        try (Interactive k = new Interactive()) {
            TurnContext ctx = user("s1", 1);
            k.event(started(ctx, T0));
            k.event(failed(ctx, Code.PROVIDER_OVERLOADED, T0));

            assertThat(k.decisions("provider_overloaded", "auto_retry")).isEqualTo(1.0);
            assertThat(k.registry.find(RecourseMeters.POLICY_DECISIONS).counters()).hasSize(1);
        }
    }

    @Test
    public void a_failed_kanban_turn_that_is_not_replay_safe_counts_a_manual_decision() {
        try (Interactive k = new Interactive()) {
            TurnContext ctx = user("s1", 1);
            k.event(started(ctx, T0));
            k.event(failed(ctx, SessionEvents.classification(Code.PROVIDER_OVERLOADED, null), false, T0));

            assertThat(k.decisions("provider_overloaded", "manual")).isEqualTo(1.0);
            assertThat(k.stale()).isZero();
        }
    }

    @Test
    public void a_failed_kanban_turn_recorded_beyond_the_staleness_bound_counts_stale_evidence_and_a_manual_decision() {
        try (Interactive k = new Interactive()) {
            TurnContext ctx = user("s1", 1);
            Instant sixMinutesAgo = T0.minus(Duration.ofMinutes(6));
            k.event(started(ctx, sixMinutesAgo));
            k.event(failed(ctx, Code.PROVIDER_OVERLOADED, sixMinutesAgo));

            assertThat(k.stale()).isEqualTo(1.0);
            assertThat(k.decisions("provider_overloaded", "manual")).isEqualTo(1.0);
        }
    }

    @Test
    public void a_failed_turn_of_a_dynamic_profile_counts_no_kanban_decision() {
        try (Interactive k = new Interactive()) {
            TurnContext c = user("s1", 1);
            TurnContext dynamic = new TurnContext(c.sessionId(), 1, c.promptOrigin(), null, null, ProfileKind.DYNAMIC,
                    c.agentType(), c.agentProfileId(), c.executionProfileId(), c.providerId(), c.modelId(), "run-1", "ws-1",
                    c.taskId(), false);
            k.event(started(dynamic, T0));
            k.event(failed(dynamic, Code.PROVIDER_OVERLOADED, T0));

            assertThat(k.registry.find(RecourseMeters.POLICY_DECISIONS).counters()).isEmpty();
        }
    }

    @Test
    public void a_retry_timer_fired_late_records_its_lag_behind_the_due_instant() {
        try (Interactive k = new Interactive()) {
            TurnContext ctx = user("s1", 1);
            k.event(started(ctx, T0));
            k.event(failed(ctx, Code.PROVIDER_OVERLOADED, T0)); // attempt 1 due at T0 + 5 s (jitter fixed at the midpoint)

            k.driver.advanceWallClockTime(Duration.ofSeconds(8)); // the punctuator runs once, 3 s after the due instant

            Timer lag = k.registry.find(RecourseMeters.TIMER_LAG).tags("owner", "interactive", "kind", "retry").timer();
            assertThat(lag).isNotNull();
            assertThat(lag.count()).isEqualTo(1);
            assertThat(lag.max(TimeUnit.MILLISECONDS)).isEqualTo(3_000.0);
        }
    }

    /** The interactive owner alone (test topology) with its meters on a SimpleMeterRegistry. */
    public final class Interactive implements AutoCloseable {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        final TopologyTestDriver driver;
        final TestInputTopic<String, io.recourse.avro.SessionEvent> events;

        Interactive() {
            RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.APPLICATION_ID, APP));
            InteractiveRecoveryPolicy policy = new InteractiveRecoveryPolicy(InteractiveTopology.interactiveConfig(config),
                    JitterSource.fixed(0.5));
            Properties props = new Properties();
            props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, APP, StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092",
                    StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()));
            driver = new TopologyTestDriver(InteractiveTestTopology.build(config, policy, null, new RecourseMeters(registry)),
                    props, T0);
            events = driver.createInputTopic(InteractiveTestTopology.SESSION_EVENTS, new StringSerializer(),
                    AvroSerde.of(io.recourse.avro.SessionEvent.class));
        }

        void event(SessionEvent e) {
            events.pipeInput(e.sessionId(), AvroMapping.toAvro(e), T0);
        }

        double decisions(String code, String result) {
            Counter c = registry.find(RecourseMeters.POLICY_DECISIONS)
                    .tags("context", "kanban", "code", code, "result", result).counter();
            return c == null ? 0 : c.count();
        }

        double stale() {
            Counter c = registry.find(RecourseMeters.STALE_EVIDENCE).tags("context", "kanban").counter();
            return c == null ? 0 : c.count();
        }

        @Override
        public void close() {
            driver.close();
        }
    }
}
