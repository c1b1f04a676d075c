package io.recourse.kit;

import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one admission path of every input topic (DESIGN §3): a stage's {@link Check} validates each
 * raw record → admitted (re-keyed) | rejected with a snake_case reason; {@link #processor} turns a
 * rejection into an {@link Admission.Rejected} whose headers are the DLQ error headers
 * ({@link DeadLetters#letter}, bounded to the DLQ's record size), and {@link #split} sends the
 * rejected records to the DLQ and returns the admitted values. Input headers never travel on
 * (DESIGN §9): they may carry credentials. Never throws on bad input, so the stream thread keeps
 * running.
 */
public final class Admissions {

    private static final Logger LOG = LoggerFactory.getLogger(Admissions.class);

    private Admissions() {
    }

    /** A stage's validation of one raw record. */
    @FunctionalInterface
    public interface Check<V> {
        /**
         * @param record the record as read (key and value may be {@code null})
         * @return the verdict; never throws on bad input
         */
        Verdict<V> check(Record<byte[], byte[]> record);
    }

    /** A check's answer. */
    public sealed interface Verdict<V> {
    }

    /** Admitted: forwarded under {@code key} with {@code value}. */
    public record Admit<V>(String key, V value) implements Verdict<V> {
    }

    /**
     * Rejected with a DLQ reason {@code code} (header {@code recourse.error.code}) and a message;
     * {@code key} is the stream key the rejection travels under until the DLQ sink (which writes
     * the original key bytes).
     */
    public record Reject<V>(String key, String code, String message) implements Verdict<V> {

        public Reject {
            Objects.requireNonNull(code, "code");
        }
    }

    /**
     * A parse step's rejection of a record, with its snake_case DLQ reason code; checks turn it
     * into a {@link Reject}.
     */
    public static class Rejection extends RuntimeException {
        private final String code;

        public Rejection(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        /** The DLQ reason code, e.g. {@code invalid_json}. */
        public String code() {
            return code;
        }
    }

    /**
     * The admission processor of {@code check}.
     *
     * @param dlqMaxRecordBytes the bound of a dead letter ({@link DeadLetters#maxRecordBytes})
     */
    public static <V> ProcessorSupplier<byte[], byte[], String, Admission<V>> processor(Check<V> check,
            int dlqMaxRecordBytes) {
        Objects.requireNonNull(check, "check");
        return () -> new AdmissionProcessor<>(check, dlqMaxRecordBytes);
    }

    /** The processor and branch names of one admission's split, as in the golden topology. */
    public record Names(String split, String rejectedBranch, String admittedBranch, String deadLetter, String dlqSink,
            String admitted) {
    }

    /**
     * Splits {@code admissions}: rejected records go to {@code dlq} with their original key and value
     * bytes (and the DLQ headers they carry); the admitted values are returned under their keys.
     */
    @SuppressWarnings("unchecked")
    public static <V> KStream<String, V> split(KStream<String, Admission<V>> admissions, Topic<byte[], byte[]> dlq,
            Names names) {
        Map<String, KStream<String, Admission<V>>> branches = admissions
                .split(Named.as(names.split()))
                .branch((key, value) -> value instanceof Admission.Rejected, Branched.as(names.rejectedBranch()))
                .defaultBranch(Branched.as(names.admittedBranch()));
        branches.get(names.split() + names.rejectedBranch())
                .map((key, rejected) -> {
                    Admission.Rejected<V> r = (Admission.Rejected<V>) rejected;
                    return KeyValue.pair(r.originalKey(), r.originalValue());
                }, Named.as(names.deadLetter()))
                .to(dlq.name(), dlq.produced(names.dlqSink()));
        return branches.get(names.split() + names.admittedBranch())
                .mapValues(admitted -> ((Admission.Admitted<V>) admitted).value(), Named.as(names.admitted()));
    }

    /** Applies a {@link Check} and forwards its verdict. */
    private static final class AdmissionProcessor<V> extends ContextualProcessor<byte[], byte[], String, Admission<V>> {

        private final Check<V> check;
        private final int dlqMaxRecordBytes;

        AdmissionProcessor(Check<V> check, int dlqMaxRecordBytes) {
            this.check = check;
            this.dlqMaxRecordBytes = dlqMaxRecordBytes;
        }

        @Override
        public void process(Record<byte[], byte[]> record) {
            Verdict<V> verdict = check.check(record);
            if (verdict instanceof Admit<V> a) {
                context().forward(record.withKey(a.key()).withValue((Admission<V>) new Admission.Admitted<>(a.value()))
                        .withHeaders(new RecordHeaders()));
            } else if (verdict instanceof Reject<V> r) {
                reject(record, r);
            }
        }

        private void reject(Record<byte[], byte[]> record, Reject<V> r) {
            RecordMetadata meta = context().recordMetadata().orElse(null);
            String topic = meta == null ? null : meta.topic();
            int partition = meta == null ? -1 : meta.partition();
            long offset = meta == null ? -1 : meta.offset();
            LOG.debug("dead-lettering {}-{}@{}: {}", topic, partition, offset, r.code());
            DeadLetters.Letter letter = DeadLetters.letter(record.key(), record.value(), record.headers(), r.code(),
                    r.message(), topic, partition, offset, dlqMaxRecordBytes);
            context().forward(new Record<String, Admission<V>>(r.key(),
                    new Admission.Rejected<>(letter.key(), letter.value()), record.timestamp(), letter.headers()));
        }
    }
}
