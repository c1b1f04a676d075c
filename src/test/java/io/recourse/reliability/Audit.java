package io.recourse.reliability;

import io.recourse.kit.DeadLetters;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The checks, from the topics alone: the {@link TopicTap} reads every Recourse topic from the
 * beginning ({@code read_committed}: inputs, outputs, the DLQ, the validated route configuration,
 * and the application's repartition and changelog topics); the {@link Workload.Ledger} says only
 * what was published. Each violation names its check and the
 * topic, partition, offset, session/run or secret concerned.
 */
final class Audit {

    /** DESIGN §6.3: the statuses that end a chain. */
    static final Set<String> TERMINAL = Set.of("exhausted", "cancelled", "disarmed", "manual");

    /**
     * DESIGN §9: the ids Recourse keeps as sent (keys and correlation ids matched exactly; ingress
     * bounds their length and charset). A planted secret found only inside such an id's value is
     * kept verbatim by design, counted and listed, not a violation.
     */
    static final List<String> VERBATIM_IDS = List.of("session_id", "prompt_generation", "workspace_id", "run_id",
            "dynamic_profile_id", "execution_profile_id", "agent_profile_id", "task_id", "command_id", "request_id");

    /** One failed check. */
    record Violation(String check, String detail) {
        @Override
        public String toString() {
            return "[" + check + "] " + detail;
        }
    }

    /** What the audit read and found. */
    static final class Result {
        final List<Violation> violations = new ArrayList<>();
        final Map<String, Long> recordsPerTopic = new TreeMap<>();
        final List<String> notes = new ArrayList<>();
        final Map<String, Long> kanbanFinal = new TreeMap<>();
        final Map<String, Long> officeFinal = new TreeMap<>();
        /** Planted secrets found only inside a kept-verbatim id: "kind in topic (place), field" → records. */
        final Map<String, Long> keptVerbatim = new TreeMap<>();
        /** Superseded RetryCommands issued before the owner had published evidence of the newer generation. */
        long supersededByDispatcher;
        /** The worst of those: how long before the command's issued_at the newer generation's first frame was appended. */
        long worstLagMs = -1;
        String worstLag = "";
        long dlq;

        void add(String check, String detail) {
            violations.add(new Violation(check, detail));
        }

        /** Violations per check. */
        Map<String, Long> byCheck() {
            Map<String, Long> m = new TreeMap<>();
            violations.forEach(v -> m.merge(v.check(), 1L, Long::sum));
            return m;
        }
    }

    private final Topics topics;
    private final String applicationId;

    Audit(Topics topics, String applicationId) {
        this.topics = topics;
        this.applicationId = applicationId;
    }

    /** The Recourse topics: the DESIGN §2 ones and the application's internal ones. */
    List<String> topicNames(Admin admin) throws Exception {
        List<String> names = new ArrayList<>();
        for (String t : admin.listTopics().names().get(30, TimeUnit.SECONDS)) {
            if (t.startsWith("recourse.") || t.startsWith(applicationId + "-")) {
                names.add(t);
            }
        }
        return names;
    }

    /** The checks on records already read ({@code names}: every Recourse topic, also the empty ones). */
    Result check(Map<String, List<ConsumerRecord<byte[], byte[]>>> records, List<String> names, Workload.Ledger ledger,
                 List<Corpora.Secret> secrets, List<Path> logs, List<String> scrapes) throws IOException {
        Result res = new Result();
        Set<String> inputs = Set.of(topics.agentFrames().name(), topics.sessionControls().name(),
                topics.kanbanDispatchAcks().name(), topics.officeRunRequests().name(), topics.officeRunControls().name(),
                topics.officeDispatchAcks().name(), topics.routeConfig().name());
        records.forEach((t, rs) -> res.recordsPerTopic.put(t, (long) rs.size()));
        for (String t : names) {
            if (t.startsWith(applicationId + "-") && !records.containsKey(t)) {
                res.recordsPerTopic.put(t, 0L);
            }
        }

        secretsInTopics(res, records, inputs, secrets);
        secretsInText(res, "process log", logs, secrets);
        for (int i = 0; i < scrapes.size(); i++) {
            scanText(res, "/metrics scrape " + (i + 1), scrapes.get(i), secrets);
        }
        classifications(res, records.getOrDefault(topics.classifications().name(), List.of()), ledger);
        duplicates(res, records);
        kanbanChains(res, records, ledger);
        staleCommands(res, records, ledger);
        officeRuns(res, records, ledger);
        hostile(res, records.getOrDefault(topics.dlq().name(), List.of()), ledger);
        res.dlq = records.getOrDefault(topics.dlq().name(), List.of()).size();
        return res;
    }

    // ------------------------------------------------------------------ reading

    // ------------------------------------------------------------------ secrets

    private static void secretsInTopics(Result res, Map<String, List<ConsumerRecord<byte[], byte[]>>> records, Set<String> inputs,
                                        List<Corpora.Secret> secrets) {
        Map<String, long[]> found = new LinkedHashMap<>(); // "secret|topic|where" -> {count, partition, offset}
        Map<String, String> excerpts = new HashMap<>();
        for (Map.Entry<String, List<ConsumerRecord<byte[], byte[]>>> e : records.entrySet()) {
            String topic = e.getKey();
            if (inputs.contains(topic) || topic.equals("recourse.dlq")) {
                continue;
            }
            for (ConsumerRecord<byte[], byte[]> r : e.getValue()) {
                List<String[]> parts = new ArrayList<>();
                parts.add(new String[] {"key", latin1(r.key())});
                parts.add(new String[] {"value", latin1(r.value())});
                for (Header h : r.headers()) {
                    parts.add(new String[] {"header " + h.key(), h.key() + "=" + latin1(h.value())});
                }
                for (String[] p : parts) {
                    if (p[1] == null) {
                        continue;
                    }
                    for (Corpora.Secret s : secrets) {
                        int at = p[1].indexOf(latin1(s.secret().getBytes(StandardCharsets.UTF_8)));
                        String id = at < 0 ? null : verbatimId(p[1], s);
                        if (id != null) {
                            res.keptVerbatim.merge(s.kind() + " in " + topic + " (" + p[0] + "), " + id, 1L, Long::sum);
                        } else if (at >= 0) {
                            String k = s.kind() + "|" + topic + "|" + p[0];
                            long[] f = found.computeIfAbsent(k, x -> new long[] {0, r.partition(), r.offset()});
                            f[0]++;
                            excerpts.putIfAbsent(k, excerpt(p[1], at, s.secret().length()));
                        }
                    }
                }
            }
        }
        found.forEach((k, f) -> {
            String[] p = k.split("\\|");
            res.add("secret-in-topic", "planted " + p[0] + " in " + p[1] + " (" + p[2] + "): " + f[0]
                    + " record(s), first at partition " + f[1] + " offset " + f[2] + ": …" + excerpts.get(k) + "…");
        });
    }

    /**
     * The kept-verbatim id whose planted value covers every occurrence of the secret in {@code text},
     * or null when an occurrence lies outside such a value (a violation).
     */
    static String verbatimId(String text, Corpora.Secret s) {
        String secret = latin1(s.secret().getBytes(StandardCharsets.UTF_8));
        for (Map.Entry<String, String> id : Workload.plantedIds(s).entrySet()) {
            if (!VERBATIM_IDS.contains(id.getKey())) {
                continue;
            }
            String value = latin1(id.getValue().getBytes(StandardCharsets.UTF_8));
            boolean covered = true;
            for (int at = text.indexOf(secret); at >= 0 && covered; at = text.indexOf(secret, at + 1)) {
                covered = false;
                for (int v = text.indexOf(value); v >= 0 && v <= at; v = text.indexOf(value, v + 1)) {
                    if (at + secret.length() <= v + value.length()) {
                        covered = true;
                        break;
                    }
                }
            }
            if (covered) {
                return id.getKey();
            }
        }
        return null;
    }

    private static void secretsInText(Result res, String what, List<Path> files, List<Corpora.Secret> secrets) throws IOException {
        for (Path f : files) {
            if (Files.exists(f)) {
                scanText(res, what + " " + f.getFileName(), Files.readString(f, StandardCharsets.ISO_8859_1), secrets);
            }
        }
    }

    private static void scanText(Result res, String where, String text, List<Corpora.Secret> secrets) {
        if (text == null) {
            return;
        }
        for (Corpora.Secret s : secrets) {
            int i = text.indexOf(latin1(s.secret().getBytes(StandardCharsets.UTF_8)));
            if (i >= 0) {
                int lineStart = text.lastIndexOf('\n', i) + 1;
                int lineEnd = text.indexOf('\n', i);
                String line = text.substring(lineStart, lineEnd < 0 ? text.length() : lineEnd);
                res.add("secret-in-" + (where.startsWith("/metrics") ? "metrics" : "log"), "planted " + s.kind() + " in " + where
                        + ": " + abbreviate(line, 240));
            }
        }
    }

    /** The bytes around a match, non-printable ones as {@code .}. */
    private static String excerpt(String s, int at, int length) {
        String raw = s.substring(Math.max(0, at - 48), Math.min(s.length(), at + length + 16));
        StringBuilder b = new StringBuilder();
        raw.chars().forEach(c -> b.append(c >= 0x20 && c < 0x7f ? (char) c : '.'));
        return b.toString();
    }

    private static String latin1(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.ISO_8859_1);
    }

    static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "…";
    }

    // ------------------------------------------------------------------ classification, commands

    private void classifications(Result res, List<ConsumerRecord<byte[], byte[]>> rs, Workload.Ledger ledger) {
        AvroSerde<io.recourse.avro.Classification> serde = AvroSerde.of(io.recourse.avro.Classification.class);
        Map<String, List<String>> seen = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : rs) {
            if (r.value() == null) {
                continue;
            }
            io.recourse.avro.Classification c = serde.deserialize(r.topic(), r.value());
            seen.computeIfAbsent(c.getSessionId() + "/" + c.getPromptGeneration(), k -> new ArrayList<>())
                    .add(r.partition() + "@" + r.offset() + " " + c.getCode());
        }
        seen.forEach((turn, where) -> {
            if (where.size() > 1) {
                res.add("one-classification-per-turn", "turn " + turn + " classified " + where.size() + " times: " + where);
            }
        });
        for (String turn : ledger.failingTurns) {
            if (!seen.containsKey(turn)) {
                res.add("one-classification-per-turn", "failing turn " + turn + " never classified");
            }
        }
    }

    private void duplicates(Result res, Map<String, List<ConsumerRecord<byte[], byte[]>>> records) {
        AvroSerde<io.recourse.avro.RetryCommand> retry = AvroSerde.of(io.recourse.avro.RetryCommand.class);
        AvroSerde<io.recourse.avro.RouteCommand> route = AvroSerde.of(io.recourse.avro.RouteCommand.class);
        Map<String, List<String>> ids = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records.getOrDefault(topics.kanbanRetryCommands().name(), List.of())) {
            ids.computeIfAbsent(retry.deserialize(r.topic(), r.value()).getCommandId(), k -> new ArrayList<>())
                    .add(r.topic() + "/" + r.partition() + "@" + r.offset());
        }
        for (ConsumerRecord<byte[], byte[]> r : records.getOrDefault(topics.officeRouteCommands().name(), List.of())) {
            ids.computeIfAbsent(route.deserialize(r.topic(), r.value()).getCommandId(), k -> new ArrayList<>())
                    .add(r.topic() + "/" + r.partition() + "@" + r.offset());
        }
        ids.forEach((id, where) -> {
            if (where.size() > 1) {
                res.add("no-duplicate-command-id", "command " + id + " written " + where.size() + " times: " + where);
            }
        });
    }

    /**
     * Per Kanban session, in recovery-state order: each chain's {@code dispatching} attempts are
     * exactly the attempts of its RetryCommands (same transaction), each once; nothing is
     * dispatched after the chain ended; a session whose user turn failed ends terminal; a
     * not-replay-safe turn is never retried.
     */
    private void kanbanChains(Result res, Map<String, List<ConsumerRecord<byte[], byte[]>>> records, Workload.Ledger ledger) {
        AvroSerde<io.recourse.avro.RecoveryState> stateSerde = AvroSerde.of(io.recourse.avro.RecoveryState.class);
        AvroSerde<io.recourse.avro.RetryCommand> retry = AvroSerde.of(io.recourse.avro.RetryCommand.class);
        Map<String, List<io.recourse.avro.RecoveryState>> states = new HashMap<>();
        Map<String, List<io.recourse.avro.RetryCommand>> commands = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records.getOrDefault(topics.kanbanRecoveryState().name(), List.of())) {
            if (r.value() != null) {
                io.recourse.avro.RecoveryState s = stateSerde.deserialize(r.topic(), r.value());
                states.computeIfAbsent(s.getSessionId(), k -> new ArrayList<>()).add(s);
            }
        }
        for (ConsumerRecord<byte[], byte[]> r : records.getOrDefault(topics.kanbanRetryCommands().name(), List.of())) {
            io.recourse.avro.RetryCommand c = retry.deserialize(r.topic(), r.value());
            commands.computeIfAbsent(c.getSessionId(), k -> new ArrayList<>()).add(c);
        }
        for (Map.Entry<String, Workload.KanbanKind> e : ledger.sessions.entrySet()) {
            String session = e.getKey();
            Workload.KanbanKind kind = e.getValue();
            List<io.recourse.avro.RecoveryState> ss = states.getOrDefault(session, List.of());
            List<io.recourse.avro.RetryCommand> cs = commands.getOrDefault(session, List.of());
            // chains: a new one starts at a scheduled attempt-1 record after a terminal one (or first)
            Map<Integer, List<Integer>> dispatchingByChain = new TreeMap<>();
            Integer chain = null;
            boolean ended = false;
            boolean anyTerminal = false;
            String last = null;
            for (io.recourse.avro.RecoveryState s : ss) {
                String st = s.getStatus();
                if ("scheduled".equals(st) && s.getAttempt() == 1 && (chain == null || ended)) {
                    chain = s.getGeneration();
                    ended = false;
                    dispatchingByChain.putIfAbsent(chain, new ArrayList<>());
                }
                if ("dispatching".equals(st)) {
                    if (chain == null || ended) {
                        res.add("no-command-for-ended-chain", "session " + session + ": dispatching attempt " + s.getAttempt()
                                + " after the chain ended (" + last + ")");
                    } else if (!dispatchingByChain.get(chain).contains(s.getAttempt())) {
                        dispatchingByChain.get(chain).add(s.getAttempt());
                    }
                }
                if (TERMINAL.contains(st)) {
                    ended = true;
                    anyTerminal = true;
                }
                last = st + "/" + s.getAttempt() + (s.getReason() == null ? "" : "/" + s.getReason());
            }
            Map<String, Integer> perAttempt = new TreeMap<>();
            for (io.recourse.avro.RetryCommand c : cs) {
                perAttempt.merge(c.getChainStartGeneration() + ":" + c.getAttempt(), 1, Integer::sum);
            }
            perAttempt.forEach((k, n) -> {
                if (n > 1) {
                    res.add("retry-issued-once", "session " + session + " chain:attempt " + k + " has " + n + " RetryCommands");
                }
            });
            for (io.recourse.avro.RetryCommand c : cs) {
                List<Integer> d = dispatchingByChain.get(c.getChainStartGeneration());
                if (d == null || !d.contains(c.getAttempt())) {
                    res.add("no-command-for-disarmed-chain", "session " + session + ": RetryCommand " + c.getCommandId()
                            + " (attempt " + c.getAttempt() + ") without a dispatching state of its chain; states "
                            + timeline(ss));
                }
            }
            dispatchingByChain.forEach((start, attempts) -> {
                for (int a : attempts) {
                    boolean issued = cs.stream().anyMatch(c -> c.getChainStartGeneration() == start && c.getAttempt() == a);
                    if (!issued) {
                        res.add("retry-issued-once", "session " + session + " chain " + start + ": attempt " + a
                                + " dispatching but no RetryCommand");
                    }
                }
            });
            String finalStatus = ss.isEmpty() ? "none" : ss.get(ss.size() - 1).getStatus()
                    + (ss.get(ss.size() - 1).getReason() == null ? "" : "/" + ss.get(ss.size() - 1).getReason());
            res.kanbanFinal.merge(kind + " " + finalStatus, 1L, Long::sum);
            // the chain ended once a terminal record follows its start (a later "none" — the retried turn
            // completing after a manual end — does not reopen it)
            if (kind.fails() && (!anyTerminal || (chain != null && !ended))) {
                res.add("chain-ends", "session " + session + " (" + kind + "): chain did not end; states " + timeline(ss));
            }
            if (kind == Workload.KanbanKind.NOT_REPLAY_SAFE && !cs.isEmpty()) {
                res.add("no-command-for-disarmed-chain", "session " + session + ": not replay-safe turn retried by "
                        + cs.get(0).getCommandId());
            }
        }
    }

    private static String timeline(List<io.recourse.avro.RecoveryState> ss) {
        List<String> out = new ArrayList<>();
        String prev = null;
        for (io.recourse.avro.RecoveryState s : ss) {
            String step = s.getStatus() + "/" + s.getAttempt() + (s.getReason() == null ? "" : "/" + s.getReason());
            if (!step.equals(prev)) {
                out.add(step);
            }
            prev = step;
        }
        return out.toString();
    }

    /**
     * DESIGN §6.3: a retry never fires for a session whose newer generation the owner can already
     * see. Every RecoveryState carries the highest generation the owner has seen for its session,
     * and a RetryCommand is written in the same transaction as its chain's {@code dispatching}
     * record; the recovery-state topic is keyed by session, so its offset order (read_committed)
     * is the owner's order for that session. A RetryCommand whose {@code dispatching} record, or
     * any earlier record of its session, names a generation above the command's
     * {@code expected_generation} is a violation ({@code no-command-for-stale-chain}); so is one
     * without a {@code dispatching} record to place it. A command the dispatcher acked
     * {@code superseded} whose owner had not yet published the newer generation is the designed
     * answer to a lagging owner: counted, with the worst lag (the command's {@code issued_at}
     * minus the append time of the newer generation's first frame; the frames topic is
     * LogAppendTime).
     */
    private void staleCommands(Result res, Map<String, List<ConsumerRecord<byte[], byte[]>>> records, Workload.Ledger ledger) {
        AvroSerde<io.recourse.avro.RetryCommand> retry = AvroSerde.of(io.recourse.avro.RetryCommand.class);
        AvroSerde<io.recourse.avro.RecoveryState> stateSerde = AvroSerde.of(io.recourse.avro.RecoveryState.class);
        List<ConsumerRecord<byte[], byte[]>> stateRecords = new ArrayList<>(
                records.getOrDefault(topics.kanbanRecoveryState().name(), List.of()));
        stateRecords.sort((x, y) -> x.partition() != y.partition() ? Integer.compare(x.partition(), y.partition())
                : Long.compare(x.offset(), y.offset()));
        Map<String, List<Object[]>> owner = new HashMap<>(); // session -> [state, partition, offset] in owner order
        for (ConsumerRecord<byte[], byte[]> r : stateRecords) {
            if (r.value() != null) {
                io.recourse.avro.RecoveryState st = stateSerde.deserialize(r.topic(), r.value());
                owner.computeIfAbsent(st.getSessionId(), k -> new ArrayList<>()).add(new Object[] {st, r.partition(), r.offset()});
            }
        }
        Map<String, Long> firstAppend = new HashMap<>(); // "session/generation" -> append time of its first frame
        for (ConsumerRecord<byte[], byte[]> r : records.getOrDefault(topics.agentFrames().name(), List.of())) {
            if (r.key() != null) {
                firstAppend.merge(new String(r.key(), StandardCharsets.UTF_8), r.timestamp(), Math::min);
            }
        }
        Set<String> superseded = new java.util.HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : records.getOrDefault(topics.kanbanDispatchAcks().name(), List.of())) {
            String v = r.value() == null ? "" : new String(r.value(), StandardCharsets.UTF_8);
            if (v.contains("\"superseded\"")) {
                superseded.add(v.replaceAll("(?s).*\"command_id\":\"([^\"]*)\".*", "$1"));
            }
        }
        Set<String> seen = new java.util.HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : records.getOrDefault(topics.kanbanRetryCommands().name(), List.of())) {
            io.recourse.avro.RetryCommand c = retry.deserialize(r.topic(), r.value());
            if (!seen.add(c.getCommandId())) {
                continue;
            }
            List<Object[]> ss = owner.getOrDefault(c.getSessionId(), List.of());
            boolean started = false;
            String evidence = null;
            boolean placed = false;
            for (Object[] o : ss) {
                io.recourse.avro.RecoveryState st = (io.recourse.avro.RecoveryState) o[0];
                if ("scheduled".equals(st.getStatus()) && st.getAttempt() == 1 && st.getGeneration() == c.getChainStartGeneration()) {
                    started = true;
                }
                if (evidence == null && st.getGeneration() > c.getExpectedGeneration()) {
                    evidence = st.getStatus() + "/" + st.getAttempt() + " generation " + st.getGeneration()
                            + " at recovery-state partition " + o[1] + " offset " + o[2];
                }
                if (started && "dispatching".equals(st.getStatus()) && st.getAttempt() == c.getAttempt()) {
                    placed = true;
                    break;
                }
            }
            Long newer = firstAppend.get(c.getSessionId() + "/" + (c.getExpectedGeneration() + 1));
            long lag = newer == null ? -1 : Duration.between(Instant.ofEpochMilli(newer), c.getIssuedAt()).toMillis();
            String what = "RetryCommand " + c.getCommandId() + " (attempt " + c.getAttempt() + ", expected_generation "
                    + c.getExpectedGeneration() + ", issued_at " + c.getIssuedAt() + ", retry-commands partition " + r.partition()
                    + " offset " + r.offset() + (newer == null ? "" : "; generation " + (c.getExpectedGeneration() + 1)
                    + " appended " + lag + " ms before it") + ")";
            if (!placed) {
                res.add("no-command-for-stale-chain", "session " + c.getSessionId() + ": " + what
                        + " has no dispatching record of its chain to place it in the owner's order");
            } else if (evidence != null) {
                res.add("no-command-for-stale-chain", "session " + c.getSessionId() + ": " + what
                        + " issued after the owner published " + evidence
                        + (superseded.contains(c.getCommandId()) ? " (the dispatcher acked it superseded)" : ""));
            } else if (superseded.contains(c.getCommandId())) {
                res.supersededByDispatcher++;
                if (lag > res.worstLagMs) {
                    res.worstLagMs = lag;
                    res.worstLag = "session " + c.getSessionId() + ": " + what;
                }
            }
        }
    }

    /**
     * Per Office run: each route attempt's command once; every park released at most once and its
     * wake issued once; the run ends (finished, declined, or its state deleted).
     */
    private void officeRuns(Result res, Map<String, List<ConsumerRecord<byte[], byte[]>>> records, Workload.Ledger ledger) {
        AvroSerde<io.recourse.avro.RouteCommand> route = AvroSerde.of(io.recourse.avro.RouteCommand.class);
        AvroSerde<io.recourse.avro.RunState> runState = AvroSerde.of(io.recourse.avro.RunState.class);
        Map<String, List<io.recourse.avro.RouteCommand>> cmds = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records.getOrDefault(topics.officeRouteCommands().name(), List.of())) {
            io.recourse.avro.RouteCommand c = route.deserialize(r.topic(), r.value());
            cmds.computeIfAbsent(c.getRunId(), k -> new ArrayList<>()).add(c);
        }
        Map<String, String> lastState = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records.getOrDefault(topics.officeRunState().name(), List.of())) {
            String key = new String(r.key(), StandardCharsets.UTF_8);
            lastState.put(key, r.value() == null ? "deleted" : runState.deserialize(r.topic(), r.value()).getStatus());
        }
        Map<String, List<Instant[]>> parks = new HashMap<>(); // run -> [parked_at, wake_at, released_at]
        AvroSerde<io.recourse.avro.ParkedRun> parked = AvroSerde.of(io.recourse.avro.ParkedRun.class);
        for (ConsumerRecord<byte[], byte[]> r : records.getOrDefault(topics.officeParkedRuns().name(), List.of())) {
            String key = new String(r.key(), StandardCharsets.UTF_8);
            List<Instant[]> ps = parks.computeIfAbsent(key, k -> new ArrayList<>());
            if (r.value() != null) {
                io.recourse.avro.ParkedRun p = parked.deserialize(r.topic(), r.value());
                if (ps.isEmpty() || ps.get(ps.size() - 1)[2] != null) {
                    ps.add(new Instant[] {p.getParkedAt(), p.getWakeAt(), null});
                }
            } else if (!ps.isEmpty()) {
                if (ps.get(ps.size() - 1)[2] != null) {
                    res.add("wake-issued-once", "run " + key + ": park released twice (partition " + r.partition() + " offset "
                            + r.offset() + ")");
                }
                ps.get(ps.size() - 1)[2] = Instant.ofEpochMilli(r.timestamp());
            }
        }
        for (Map.Entry<String, Workload.OfficeKind> e : ledger.runs.entrySet()) {
            String run = e.getKey();
            List<io.recourse.avro.RouteCommand> cs = cmds.getOrDefault(run, List.of());
            Map<String, Integer> perAttempt = new TreeMap<>();
            cs.stream().filter(c -> !"decline".equals(c.getAction()))
                    .forEach(c -> perAttempt.merge(c.getAttempt() + ":" + c.getAction(), 1, Integer::sum));
            perAttempt.forEach((k, n) -> {
                if (n > 1) {
                    res.add("retry-issued-once", "run " + run + " attempt:action " + k + " has " + n + " RouteCommands");
                }
            });
            for (Instant[] p : parks.getOrDefault(run, List.of())) {
                if (p[1] == null) {
                    continue;
                }
                long wakes = cs.stream().filter(c -> !"decline".equals(c.getAction()) && !c.getIssuedAt().isBefore(p[0])).count();
                if (p[2] != null && wakes != 1) {
                    res.add("wake-issued-once", "run " + run + ": parked at " + p[0] + " (wake " + p[1] + ") released, then "
                            + wakes + " route commands");
                }
            }
            String st = lastState.getOrDefault(run, "none");
            res.officeFinal.merge(e.getValue() + " " + st + " parks=" + parks.getOrDefault(run, List.of()).size(), 1L, Long::sum);
            if (!Set.of("finished", "declined", "deleted").contains(st)) {
                res.add("run-ends", "run " + run + " (" + e.getValue() + "): last RunState " + st + "; commands "
                        + cs.stream().map(c -> c.getAttempt() + ":" + c.getAction()).toList());
            }
        }
    }

    /** Every hostile record marked {@code dlq} is in the DLQ, by its source coordinates, with an error code. */
    private static void hostile(Result res, List<ConsumerRecord<byte[], byte[]>> dlq, Workload.Ledger ledger) {
        Map<String, ConsumerRecord<byte[], byte[]>> bySource = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : dlq) {
            String src = DeadLetters.header(r.headers(), "recourse.source.topic") + "/"
                    + DeadLetters.header(r.headers(), "recourse.source.partition") + "/"
                    + DeadLetters.header(r.headers(), "recourse.source.offset");
            bySource.put(src, r);
        }
        ledger.hostile.forEach((id, h) -> {
            // h = {topic, partition, offset, expect, note}
            ConsumerRecord<byte[], byte[]> d = bySource.get(h[0] + "/" + h[1] + "/" + h[2]);
            if ("dlq".equals(h[3]) && d == null) {
                res.add("hostile-to-dlq", "hostile record " + id + " (" + h[4] + ", " + h[0] + " partition " + h[1] + " offset "
                        + h[2] + ") not in the DLQ");
            } else if (d != null) {
                String code = DeadLetters.header(d.headers(), "recourse.error.code");
                res.notes.add("hostile " + id + " -> DLQ " + code);
                if (code == null || code.isBlank()) {
                    res.add("hostile-to-dlq", "hostile record " + id + " in the DLQ without recourse.error.code");
                }
            } else {
                res.notes.add("hostile " + id + " -> not dead-lettered (allowed: " + h[4] + ")");
            }
        });
    }
}
