package io.recourse.topology;

import static io.recourse.evidence.streams.SessionEvents.failed;
import static io.recourse.evidence.streams.SessionEvents.started;
import static io.recourse.evidence.streams.SessionEvents.user;
import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.config.RecourseConfig;
import io.recourse.evidence.SessionEvent;
import io.recourse.evidence.TurnContext;
import io.recourse.evidence.streams.AvroMapping;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.JitterSource;
import io.recourse.interactive.RecoveryReason;
import io.recourse.interactive.RecoveryState;
import io.recourse.interactive.RecoveryStatus;
import io.recourse.interactive.streams.InteractiveAvro;
import io.recourse.interactive.streams.InteractiveTestTopology;
import io.recourse.interactive.streams.InteractiveTopology;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import io.recourse.runtime.ScaledTime;
import io.recourse.taxonomy.Code;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN §8 on the interactive topology: under {@code --time-scale} the wall clock the owner reads is
 * the scaled one, and a TurnOutcome's {@code recorded_at} (broker wall time) is mapped onto it before
 * the staleness comparison.
 */
public class ScaledClockTopologyTest {

    public static final String APP = "recourse-scaled-clock-test";
    public static final Instant ORIGIN = Instant.parse("2026-11-30T09:00:00Z");
    /** 40 s of wall time after the origin at 10×: the scaled clock reads origin + 400 s. */
    public static final Instant RECORDED_AT = ORIGIN.plusSeconds(40);
    public static final Instant SCALED_NOW = ORIGIN.plusSeconds(400);

    public final RecourseConfig config = RecourseConfig.of(Map.of(RecourseConfig.APPLICATION_ID, APP));
    public TopologyTestDriver driver;
    @TempDir
    public Path stateDir;

    @AfterEach
    public void stop() {
        if (driver != null) {
            driver.close();
        }
    }

    private RecoveryState failOnce(UnaryOperator<Instant> recordClock) {
        Properties props = new Properties();
        props.putAll(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, APP, StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092",
                StreamsConfig.STATE_DIR_CONFIG, stateDir.toString()));
        driver = new TopologyTestDriver(InteractiveTestTopology.build(config,
                new InteractiveRecoveryPolicy(InteractiveTopology.interactiveConfig(config), JitterSource.fixed(0.5)),
                recordClock), props, SCALED_NOW);
        TestInputTopic<String, io.recourse.avro.SessionEvent> events = driver.createInputTopic(
                InteractiveTestTopology.SESSION_EVENTS, new StringSerializer(), AvroSerde.of(io.recourse.avro.SessionEvent.class));
        TestOutputTopic<String, io.recourse.avro.RecoveryState> states = driver.createOutputTopic(
                Topics.from(config).kanbanRecoveryState().name(), new StringDeserializer(),
                AvroSerde.of(io.recourse.avro.RecoveryState.class));
        TurnContext ctx = user("s1", 1);
        for (SessionEvent e : new SessionEvent[] {started(ctx, RECORDED_AT), failed(ctx, Code.PROVIDER_OVERLOADED, RECORDED_AT)}) {
            events.pipeInput(e.sessionId(), AvroMapping.toAvro(e), RECORDED_AT);
        }
        return InteractiveAvro.fromAvro(states.readValuesToList().get(0));
    }

    @Test
    public void a_failure_recorded_moments_ago_on_the_wall_clock_is_fresh_on_the_scaled_clock() {
        RecoveryState state = failOnce(new ScaledTime(ORIGIN, 10)::scaled);

        assertThat(state.status()).isEqualTo(RecoveryStatus.SCHEDULED);
        assertThat(state.retryAt()).as("5 s nominal, jitter 0.5 = none, on the scaled clock").isEqualTo(SCALED_NOW.plusSeconds(5));
    }

    @Test
    public void without_the_mapping_the_same_failure_would_look_stale_to_the_scaled_clock() {
        RecoveryState state = failOnce(UnaryOperator.identity());

        assertThat(state.status()).isNotEqualTo(RecoveryStatus.SCHEDULED);
        assertThat(state.reason()).isEqualTo(RecoveryReason.STALE_EVIDENCE);
    }
}
