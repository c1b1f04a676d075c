package io.recourse.kit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The poll thread hands every record to the handler on its own thread, keeps what stopped it, and stops on close. */
class PollThreadTest {

    private static final TopicPartition TP = new TopicPartition("t", 0);

    private static MockConsumer<String, String> consumer() {
        MockConsumer<String, String> c = new MockConsumer<>("earliest");
        c.assign(List.of(TP));
        c.updateBeginningOffsets(Map.of(TP, 0L));
        return c;
    }

    @Test
    void records_reach_the_handler_on_the_named_thread_and_close_stops_it() {
        MockConsumer<String, String> consumer = consumer();
        consumer.addRecord(new ConsumerRecord<>("t", 0, 0, "k1", "v1"));
        List<String> seen = new CopyOnWriteArrayList<>();
        AtomicReference<String> threadName = new AtomicReference<>();
        PollThread poller = PollThread.start("test-poller", consumer, Duration.ofMillis(5), records -> {
            threadName.set(Thread.currentThread().getName());
            records.forEach(r -> seen.add(r.value()));
        });
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 1);
        consumer.schedulePollTask(() -> consumer.addRecord(new ConsumerRecord<>("t", 0, 1, "k2", "v2")));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 2);

        poller.close();
        assertThat(poller.running()).isFalse();
        assertThat(poller.failure()).isNull();
        assertThat(seen).containsExactly("v1", "v2");
        assertThat(threadName.get()).isEqualTo("test-poller");
        assertThat(consumer.closed()).as("the consumer stays the caller's").isFalse();
        poller.close(); // idempotent
    }

    @Test
    void an_error_from_the_poll_or_the_handler_stops_the_thread_and_is_kept() {
        MockConsumer<String, String> polling = consumer();
        polling.setPollException(new KafkaException("broker gone"));
        PollThread fromPoll = PollThread.start("failing-poll", polling, Duration.ofMillis(5), records -> { });
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !fromPoll.running());
        assertThat(fromPoll.failure()).isInstanceOf(KafkaException.class).hasMessage("broker gone");

        MockConsumer<String, String> handled = consumer();
        handled.addRecord(new ConsumerRecord<>("t", 0, 0, "k", "v"));
        PollThread fromHandler = PollThread.start("failing-handler", handled, Duration.ofMillis(5), records -> {
            if (!records.isEmpty()) {
                throw new IllegalStateException("bad record");
            }
        });
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !fromHandler.running());
        assertThat(fromHandler.failure()).isInstanceOf(IllegalStateException.class).hasMessage("bad record");
        fromHandler.close();
    }

    @Test
    void a_wakeup_stops_the_thread_without_a_failure() {
        MockConsumer<String, String> consumer = consumer();
        PollThread poller = PollThread.start("woken", consumer, Duration.ofMillis(5), records -> { });
        consumer.wakeup();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !poller.running());
        assertThat(poller.failure()).isNull();
    }
}
