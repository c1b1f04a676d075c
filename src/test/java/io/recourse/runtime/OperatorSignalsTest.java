package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.config.RecourseConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The restore listener's progress and count, and the dead-letter counter's closed label values. */
class OperatorSignalsTest {

    @Test
    void restore_progress_states_records_percent_rate_and_eta() {
        assertThat(RestoreProgress.progress(250, 1000, 5_000_000_000L))
                .isEqualTo("250/1000 records (25 %), 50 records/s, ETA 15 s");
        assertThat(RestoreProgress.progress(0, 1000, 1_000_000_000L)).endsWith("ETA unknown");
    }

    @Test
    void the_listener_counts_the_partitions_restoring_now() {
        AtomicLong nanos = new AtomicLong();
        RestoreProgress p = new RestoreProgress(nanos::get);
        TopicPartition tp = new TopicPartition("app-recourse-routing-runs-changelog", 0);
        p.onRestoreStart(tp, "recourse-routing-runs", 0, 100);
        assertThat(p.restoring()).isEqualTo(1);
        nanos.addAndGet(6_000_000_000L);
        p.onBatchRestored(tp, "recourse-routing-runs", 50, 50);
        p.onRestoreEnd(tp, "recourse-routing-runs", 100);
        assertThat(p.restoring()).isZero();
        p.onRestoreStart(tp, "recourse-routing-runs", 0, 100);
        p.onRestoreSuspended(tp, "recourse-routing-runs", 10);
        assertThat(p.restoring()).isZero();
    }

    @Test
    void streams_producers_carry_the_dead_letter_counter() {
        Map<String, Object> producer = new org.apache.kafka.streams.StreamsConfig(
                RecourseRunner.streamsProperties(RecourseConfig.defaults(), "127.0.0.1:9092")).getProducerConfigs("c");
        assertThat(String.valueOf(producer.get("interceptor.classes"))).contains(DeadLetterCounter.class.getName());
        assertThat(producer.get(RecourseConfig.TOPIC_DLQ)).isEqualTo("recourse.dlq");
    }

    @Test
    void dead_letter_labels_are_a_closed_vocabulary() {
        DeadLetterCounter c = new DeadLetterCounter();
        Map<String, Object> configs = new HashMap<>();
        configs.put(RecourseConfig.TOPIC_AGENT_FRAMES, "frames.in");
        c.configure(configs);
        assertThat(c.reason("invalid_json")).isEqualTo("invalid_json");
        assertThat(c.reason("processing_failed")).isEqualTo("processing_failed");
        assertThat(c.reason("sk-proj-planted0secret")).isEqualTo("other");
        assertThat(c.reason(null)).isEqualTo("other");
        assertThat(c.topic("frames.in")).isEqualTo("frames.in");
        assertThat(c.topic("recourse.session-controls")).isEqualTo("recourse.session-controls");
        assertThat(c.topic("app-recourse-session-events-by-session-repartition")).isEqualTo("repartition");
        assertThat(c.topic("attacker-chosen")).isEqualTo("other");
    }
}
