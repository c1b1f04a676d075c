package io.recourse.runtime;

import io.micrometer.core.instrument.Metrics;
import io.recourse.config.RecourseConfig;
import io.recourse.ingress.DlqReason;
import io.recourse.kit.DeadLetters;
import io.recourse.taxonomy.WireName;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;

/**
 * Counts the dead letters Kafka Streams' producers send (DESIGN §10):
 * {@code recourse_dlq_records_total{reason, topic}}, a producer interceptor {@link RecourseRunner}
 * installs, so every path to {@code recourse.dlq} (the stages' rejects, the exception handlers) counts
 * in one place. Both labels are closed vocabularies: {@code reason} is a {@link DlqReason} wire name or
 * one of the handlers' reasons ({@code deserialization_failed}, {@code processing_failed},
 * {@code production_failed}), else {@code other}; {@code topic} is one of Recourse's configured topic
 * names, {@code repartition} for an internal topic, else {@code other}. A record counts when it is
 * sent: a dead letter of an aborted transaction (exactly-once) counts too.
 */
public final class DeadLetterCounter implements ProducerInterceptor<Object, Object> {

    /** The meter's name ({@code recourse_dlq_records_total} in Prometheus). */
    public static final String DLQ_RECORDS = "recourse.dlq.records";
    /** Header-defined reasons beyond {@link DlqReason}. */
    static final Set<String> HANDLER_REASONS = Set.of(DeadLetters.DESERIALIZATION_FAILED, DeadLetters.PROCESSING_FAILED,
            DeadLetters.PRODUCTION_FAILED);

    private String dlqTopic = RecourseConfig.defaultValues().get(RecourseConfig.TOPIC_DLQ);
    private final Set<String> topics = new HashSet<>();
    private final Set<String> reasons = new HashSet<>(HANDLER_REASONS);

    @Override
    public void configure(Map<String, ?> configs) {
        Object dlq = configs.get(RecourseConfig.TOPIC_DLQ);
        if (dlq != null) {
            dlqTopic = dlq.toString();
        }
        for (String key : RecourseConfig.topicKeys()) {
            Object name = configs.get(key);
            topics.add(name != null ? name.toString() : RecourseConfig.defaultValues().get(key));
        }
        for (DlqReason r : DlqReason.values()) {
            reasons.add(WireName.of(r));
        }
    }

    @Override
    public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
        if (dlqTopic.equals(record.topic())) {
            Metrics.counter(DLQ_RECORDS, "reason", reason(header(record, DeadLetters.ERROR_CODE)),
                    "topic", topic(header(record, DeadLetters.SOURCE_TOPIC))).increment();
        }
        return record;
    }

    String reason(String code) {
        return code != null && reasons.contains(code) ? code : "other";
    }

    String topic(String source) {
        if (source == null) {
            return "other";
        }
        if (topics.contains(source)) {
            return source;
        }
        return source.endsWith("-repartition") ? "repartition" : "other";
    }

    private static String header(ProducerRecord<?, ?> record, String key) {
        Header h = record.headers().lastHeader(key);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
    }

    @Override
    public void close() {
    }
}
