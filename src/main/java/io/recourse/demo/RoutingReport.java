package io.recourse.demo;

import io.recourse.avro.CandidateBlock;
import io.recourse.avro.ParkedRun;
import io.recourse.avro.ProviderHealth;
import io.recourse.avro.RouteAttempt;
import io.recourse.avro.RouteCommand;
import io.recourse.avro.RunState;
import io.recourse.routing.streams.RoutingOutput;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** The routing demo's report: the timeline on the scaled clock, then the check's verdict. */
final class RoutingReport {

    static int report(PrintWriter out, Instant origin, Instant reset, RoutingObserved observed, int runs, Duration tolerance) {
        List<ConsumerRecord<String, ? extends SpecificRecord>> all = new ArrayList<>();
        RoutingObserved.KINDS.forEach(k -> all.addAll(observed.records.get(k)));
        all.sort(Comparator.comparingLong((ConsumerRecord<String, ? extends SpecificRecord> r) -> r.timestamp())
                .thenComparingInt(r -> RoutingCheck.order(r.topic())).thenComparingLong(ConsumerRecord::offset));
        out.println("-- route timeline (scaled clock, from the demo's start)");
        for (ConsumerRecord<String, ? extends SpecificRecord> r : all) {
            out.println("+" + offset(origin, Instant.ofEpochMilli(r.timestamp())) + " " + line(r.key(), r.value(), origin));
        }
        out.println("-- provider health");
        Map<String, ProviderHealth> health = new TreeMap<>();
        observed.records.get(RoutingOutput.Kind.PROVIDER_HEALTH).forEach(r -> health.put(r.key(), (ProviderHealth) r.value()));
        health.forEach((k, h) -> out.println(k + " " + h.getState() + " step=" + h.getBackoffStep()
                + (h.getCode() == null ? "" : " code=" + h.getCode())
                + (h.getRetryAt() == null ? "" : " retry_at=+" + offset(origin, h.getRetryAt()))));
        out.println("-- parked runs (each park, and when it was released)"
                + (reset == null ? "" : "; quota reset at +" + offset(origin, reset)));
        Map<String, String> parked = new TreeMap<>();
        for (ConsumerRecord<String, ? extends SpecificRecord> r : observed.records.get(RoutingOutput.Kind.PARKED_RUN)) {
            if (r.value() instanceof ParkedRun p) {
                parked.put(r.key(), p.getStatus() + (p.getWakeAt() == null ? "" : " wake_at=+" + offset(origin, p.getWakeAt()))
                        + " " + blocks(p.getCandidates()));
            } else if (parked.containsKey(r.key())) {
                parked.put(r.key(), parked.get(r.key()) + " released=+" + offset(origin, Instant.ofEpochMilli(r.timestamp())));
            }
        }
        parked.forEach((k, v) -> out.println(k + " " + v));

        List<String> differences = RoutingCheck.check(observed, reset, runs, tolerance);
        if (!observed.deadLetters.isEmpty()) {
            out.println("-- dead letters: " + observed.deadLetters.size());
            observed.deadLetters.stream().limit(5).forEach(out::println);
            differences.add(0, observed.deadLetters.size() + " dead letters, first: " + observed.deadLetters.get(0));
        }
        if (differences.isEmpty()) {
            out.printf("-- timeline as expected: %d runs and %d health keys follow the scenario%n", runs, health.size());
            out.flush();
            return 0;
        }
        out.printf("-- timeline DIFFERS from the scenario in %d places; first: %s%n", differences.size(), differences.get(0));
        differences.stream().skip(1).limit(20).forEach(out::println);
        out.flush();
        return 1;
    }

    static String line(String key, SpecificRecord v, Instant origin) {
        if (v == null) {
            return "release " + key;
        }
        if (v instanceof RouteCommand c) {
            return "command " + c.getCommandId() + " " + c.getAction() + " on=" + c.getExecutionProfileId()
                    + " reason=" + c.getReason();
        }
        if (v instanceof RunState s) {
            return "state " + s.getRunId() + " " + s.getStatus() + " attempt=" + s.getAttempt()
                    + (s.getExecutionProfileId() == null ? "" : " on=" + s.getExecutionProfileId())
                    + (s.getRetryAt() == null ? "" : " retry_at=+" + offset(origin, s.getRetryAt()) + " ("
                    + s.getRetryOrdinal() + "/" + s.getMaxRetries() + ")")
                    + (s.getWakeAt() == null ? "" : " wake_at=+" + offset(origin, s.getWakeAt()))
                    + (s.getReason() == null ? "" : " reason=" + s.getReason());
        }
        if (v instanceof RouteAttempt a) {
            return "attempt " + a.getRunId() + " #" + a.getSequence() + " " + a.getOutcome() + " "
                    + (a.getExecutionProfileId() == null ? "-" : a.getExecutionProfileId())
                    + (a.getCode() == null ? "" : " " + a.getCode());
        }
        if (v instanceof ProviderHealth h) {
            return "health " + key + " " + h.getState() + (h.getRetryAt() == null ? "" : " retry_at=+" + offset(origin, h.getRetryAt()));
        }
        if (v instanceof ParkedRun p) {
            return "park " + p.getRunId() + " " + p.getStatus() + (p.getWakeAt() == null ? "" : " wake_at=+" + offset(origin, p.getWakeAt()));
        }
        return String.valueOf(v);
    }

    static String blocks(List<CandidateBlock> blocks) {
        return blocks.stream().map(b -> b.getExecutionProfileId() + "=" + b.getReason()
                + (b.getCode() == null ? "" : ":" + b.getCode())).toList().toString();
    }

    static String offset(Instant origin, Instant i) {
        Duration d = Duration.between(origin, i);
        boolean neg = d.isNegative();
        d = d.abs();
        return String.format("%s%02d:%02d:%02d.%03d", neg ? "-" : "", d.toHours(), d.toMinutesPart(), d.toSecondsPart(),
                d.toMillisPart());
    }
}
