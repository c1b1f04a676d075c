package io.recourse.reliability;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.demo.InteractiveScenarios;
import io.recourse.demo.InteractiveScenarios.Scenario;
import io.recourse.demo.InteractiveScenarios.Trigger;
import io.recourse.demo.InteractiveScenarios.Turn;
import io.recourse.interactive.RetryCommand;
import io.recourse.interactive.streams.InteractiveAvro;
import io.recourse.kit.AvroSerde;
import io.recourse.kit.Topics;
import io.recourse.routing.CandidateRef;
import io.recourse.routing.RouteConfig;
import io.recourse.routing.RouteConfigJson;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The harness's scripted dispatcher and gateway (DESIGN §§6.3, 7.3): publishes the frames of
 * Kanban sessions (concrete profile) and Office runs (dynamic profile, one workspace per run),
 * reads {@code recourse.kanban.retry-commands}, {@code recourse.kanban.recovery-state} and
 * {@code recourse.office.route-commands} ({@code read_committed}), acks every command once
 * (Kanban: {@code failed}/{@code superseded} when its {@code expected_generation} is no longer the
 * session's latest) and publishes the dispatched turn as the script says. What it published is
 * kept as the {@link Ledger} the audit compares the topics with. It survives Recourse restarts
 * (its clients only talk to the broker); {@link #pause()} stops it while the broker bounces.
 */
final class Workload implements AutoCloseable {

    /** The Kanban scripts; each session plays one. */
    enum KanbanKind {
        /** 529 overloaded, the retry completes. */
        RETRY_OK(List.of(Turn.OVERLOADED, Turn.COMPLETED), "claude", 0, Trigger.NONE),
        /** Model at capacity twice, the second retry completes. */
        RETRY_TWICE_OK(List.of(Turn.CAPACITY, Turn.CAPACITY, Turn.COMPLETED), "codex", 0, Trigger.NONE),
        /** A tool ran, then 529: not replay-safe, never retried. */
        NOT_REPLAY_SAFE(List.of(Turn.TOOL_THEN_OVERLOADED), "claude", 0, Trigger.NONE),
        /** A completed turn: nothing to classify or retry. */
        COMPLETED(List.of(Turn.COMPLETED), "claude", 0, Trigger.NONE),
        /** 429 with a 45 s hint; the user sends a new prompt during the countdown (disarms). */
        NEW_PROMPT(List.of(Turn.RATE_LIMITED, Turn.COMPLETED), "claude", 45, Trigger.NEW_PROMPT_WHEN_SCHEDULED),
        /** 429 with a 45 s hint; a {@code cancel_retry} control during the countdown. */
        CANCEL(List.of(Turn.RATE_LIMITED, Turn.COMPLETED), "claude", 45, Trigger.NONE);

        final List<Turn> turns;
        final String agent;
        final int hint;
        final Trigger trigger;

        KanbanKind(List<Turn> turns, String agent, int hint, Trigger trigger) {
            this.turns = turns;
            this.agent = agent;
            this.hint = hint;
            this.trigger = trigger;
        }

        boolean fails() {
            return this != COMPLETED;
        }
    }

    /** The Office scripts; each run plays one. */
    enum OfficeKind {
        /** Launch fails with model capacity; the short same-route retry completes. */
        SHORT_RETRY,
        /** The launch completes. */
        OK,
        /** Quota on both candidates (reset in 15 s): parked, woken at the reset, then completes. */
        PARK_AND_WAKE
    }

    /** What the workload published and did, for the audit. */
    static final class Ledger {
        final Map<String, KanbanKind> sessions = new ConcurrentHashMap<>();
        final Map<String, OfficeKind> runs = new ConcurrentHashMap<>();
        /** {@code session/generation} of every turn published with a failing end. */
        final Set<String> failingTurns = ConcurrentHashMap.newKeySet();
        /** Every command id the dispatcher saw (the audit re-reads the topics; this is for the report). */
        final Set<String> commandsSeen = ConcurrentHashMap.newKeySet();
        final Map<String, String> triggers = new ConcurrentHashMap<>();
        /** Runs that ended: the dispatcher sent {@code run_finished}, or their RunState was {@code declined}. */
        final Set<String> finishedRuns = ConcurrentHashMap.newKeySet();
        /** Per session, the latest status of its chain as the dispatcher saw it (a terminal one sticks until a new chain starts). */
        final Map<String, String> kanbanLastStatus = new ConcurrentHashMap<>();
        /** Where each planted secret went: kind → the session it was planted in. */
        final Map<String, String> secretSessions = new LinkedHashMap<>();
        /** Hostile records as sent: id → {topic, partition, offset, expect, note}. */
        final Map<String, String[]> hostile = new LinkedHashMap<>();
        final AtomicLong frames = new AtomicLong();
        final AtomicLong acks = new AtomicLong();
    }

    static final String PROFILE = "rel-dyn";
    static final List<CandidateRef> CANDIDATES = List.of(
            new CandidateRef("codex-gpt5", "openai", "gpt-5"),
            new CandidateRef("claude-sonnet", "anthropic", "claude-sonnet-4"));

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Topics topics;
    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final AvroSerde<io.recourse.avro.RetryCommand> commandSerde = AvroSerde.of(io.recourse.avro.RetryCommand.class);
    private final AvroSerde<io.recourse.avro.RecoveryState> stateSerde = AvroSerde.of(io.recourse.avro.RecoveryState.class);
    private final AvroSerde<io.recourse.avro.RouteCommand> routeSerde = AvroSerde.of(io.recourse.avro.RouteCommand.class);
    private final AvroSerde<io.recourse.avro.RunState> runStateSerde = AvroSerde.of(io.recourse.avro.RunState.class);
    private final InteractiveScenarios.Frames frames = new InteractiveScenarios.Frames();
    final Ledger ledger = new Ledger();
    private final Map<String, Scenario> scenarios = new ConcurrentHashMap<>();
    private final Map<String, Corpora.Secret> secretOf = new ConcurrentHashMap<>();
    private final Map<String, Integer> latest = new ConcurrentHashMap<>();
    private final Map<String, Long> seq = new ConcurrentHashMap<>();
    private final Map<String, Integer> officeDispatches = new ConcurrentHashMap<>();
    private final Map<String, String> officeSession = new ConcurrentHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicBoolean paused = new AtomicBoolean();
    private final Object pauseLock = new Object();
    private volatile boolean inPoll;
    private volatile RuntimeException failure;
    private Thread thread;

    Workload(String bootstrap, Topics topics) {
        this.topics = topics;
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_048_000,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000),
                new ByteArraySerializer(), new ByteArraySerializer());
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> parts = new ArrayList<>();
        for (String t : List.of(topics.kanbanRetryCommands().name(), topics.kanbanRecoveryState().name(),
                topics.officeRouteCommands().name(), topics.officeRunState().name())) {
            consumer.partitionsFor(t).forEach(p -> parts.add(new TopicPartition(t, p.partition())));
        }
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
    }

    Workload start() {
        thread = new Thread(this::loop, "reliability-dispatcher");
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    RuntimeException failure() {
        return failure;
    }

    /** Stops polling and producing until {@link #resume()} (returns once the current poll is done). */
    void pause() throws InterruptedException {
        paused.set(true);
        producer.flush();
        while (inPoll) {
            Thread.sleep(10);
        }
    }

    void resume() {
        paused.set(false);
        synchronized (pauseLock) {
            pauseLock.notifyAll();
        }
    }

    private void awaitUnpaused() throws InterruptedException {
        synchronized (pauseLock) {
            while (paused.get() && running.get()) {
                pauseLock.wait(100);
            }
        }
    }

    // ------------------------------------------------------------------ publishing

    /** Publishes the route configuration of {@link #PROFILE}: the default document over {@link #CANDIDATES}. */
    void publishRouteConfig() throws Exception {
        RouteConfig cfg = RouteConfig.defaultFor(PROFILE, CANDIDATES);
        producer.send(new ProducerRecord<>(topics.routeConfig().name(), bytes(PROFILE),
                bytes(RouteConfigJson.write(cfg)))).get();
    }

    /** Starts a Kanban session: its user turn (generation 1). */
    void beginKanban(String session, KanbanKind kind, Corpora.Secret secret) throws InterruptedException {
        awaitUnpaused();
        Scenario s = new Scenario(kind.name(), session, kind.agent, kind.name(), kind.turns, kind.hint, kind.trigger, List.of());
        scenarios.put(session, s);
        ledger.sessions.put(session, kind);
        if (secret != null) {
            secretOf.put(session, secret);
            synchronized (ledger.secretSessions) {
                ledger.secretSessions.put(secret.kind(), session);
            }
        }
        publishKanbanTurn(s, 1, kind.turns.get(0), null);
    }

    /** Starts an Office run: its RunRequest on its own workspace. */
    void beginOffice(String run, OfficeKind kind, Corpora.Secret secret) throws InterruptedException {
        awaitUnpaused();
        ledger.runs.put(run, kind);
        String ws = workspace(run);
        ObjectNode req = JSON.createObjectNode().put("type", "run_request").put("request_id", "req-" + run).put("run_id", run)
                .put("workspace_id", ws).put("dynamic_profile_id", PROFILE).put("task_id", "task-" + run)
                .put("occurred_at", Instant.now().toString());
        RecordHeaders h = new RecordHeaders();
        if (secret != null) {
            h.add(new RecordHeader("authorization", bytes("Bearer " + secret.secret())));
            secretOf.put(run, secret);
        }
        producer.send(new ProducerRecord<>(topics.officeRunRequests().name(), null, bytes(ws), bytes(req.toString()), h));
    }

    static String workspace(String run) {
        return "ws-" + run;
    }

    private void publishKanbanTurn(Scenario s, int generation, Turn turn, RetryCommand command) {
        String session = s.sessionId();
        long first = seq.getOrDefault(session, 1L);
        List<ObjectNode> fs = frames.turn(s, generation, first, Instant.now(), turn, command);
        Corpora.Secret secret = generation == 1 ? secretOf.get(session) : null;
        if (secret != null) {
            fs = plant(fs, secret);
        }
        seq.put(session, first + fs.size());
        latest.merge(session, generation, Math::max);
        if (turn != Turn.COMPLETED) {
            ledger.failingTurns.add(session + "/" + generation);
        }
        send(topics.agentFrames().name(), session + "/" + generation, fs, secret);
    }

    /**
     * The ids (DESIGN §9's kept-verbatim list) that carry a planted secret, field → value as sent:
     * {@code task_id} of the session's first frame. The audit reports a secret inside such a value
     * as kept verbatim by design.
     */
    static Map<String, String> plantedIds(Corpora.Secret secret) {
        return Map.of("task_id", "task with " + secret.inContext());
    }

    /** Plants the secret in every free-text field of a turn: prompt, turn_config, stderr, HTTP headers and body, error message. */
    private static List<ObjectNode> plant(List<ObjectNode> fs, Corpora.Secret secret) {
        String text = secret.inContext();
        List<ObjectNode> out = new ArrayList<>();
        for (ObjectNode f : fs) {
            ObjectNode p = (ObjectNode) f.get("payload");
            String source = f.path("source").asText();
            switch (source) {
                case "acp_request" -> {
                    ArrayNode prompt = (ArrayNode) p.path("params").path("prompt");
                    if (prompt.size() > 0) {
                        ((ObjectNode) prompt.get(0)).put("text", "please use " + text);
                    }
                    f.putObject("turn_config").put("model", "m").put("api_key", secret.secret()).put("note", text);
                    plantedIds(secret).forEach(f::put);
                }
                case "http" -> {
                    obj(p, "headers").put("authorization", "Bearer " + secret.secret()).put("x-debug", text);
                    obj(obj(p, "body"), "error").put("message", "Overloaded; " + text);
                }
                case "acp_error" -> {
                    ObjectNode err = obj(p, "error");
                    err.put("message", err.path("message").asText() + " " + text);
                    obj(err, "data").put("detail", text);
                }
                default -> {
                }
            }
            out.add(f);
            if (source.equals("acp_request")) {
                ObjectNode stderr = f.deepCopy();
                stderr.remove(List.of("prompt_origin", "command_id", "retry_of_generation", "prompt_digest", "turn_config", "task_id"));
                stderr.put("source", "stderr");
                stderr.set("payload", JSON.createObjectNode().put("line", "ERROR provider call failed: " + text));
                out.add(stderr);
            }
        }
        long first = fs.get(0).get("seq").asLong();
        for (int i = 0; i < out.size(); i++) {
            out.get(i).put("seq", first + i);
        }
        return out;
    }

    private void send(String topic, String key, List<ObjectNode> fs, Corpora.Secret secret) {
        for (ObjectNode f : fs) {
            RecordHeaders h = new RecordHeaders();
            h.add(new RecordHeader("traceparent", bytes("00-reliability-01")));
            if (secret != null) {
                h.add(new RecordHeader("authorization", bytes("Bearer " + secret.secret())));
                h.add(new RecordHeader("x-context", bytes(secret.inContext())));
            }
            producer.send(new ProducerRecord<>(topic, null, bytes(key), bytes(f.toString()), h));
            ledger.frames.incrementAndGet();
        }
    }

    /** Sends a raw record (the hostile corpus) and returns where it landed. */
    RecordMetadata sendRaw(String topic, byte[] key, byte[] value) throws Exception {
        return producer.send(new ProducerRecord<>(topic, key, value)).get();
    }

    void flush() {
        producer.flush();
    }

    // ------------------------------------------------------------------ dispatching

    private void loop() {
        try {
            while (running.get()) {
                awaitUnpaused();
                if (!running.get()) {
                    break;
                }
                inPoll = true;
                try {
                    if (paused.get()) {
                        continue;
                    }
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                        if (r.value() == null) {
                            continue;
                        }
                        String t = r.topic();
                        if (t.equals(topics.kanbanRetryCommands().name())) {
                            onRetry(InteractiveAvro.fromAvro(commandSerde.deserialize(t, r.value())));
                        } else if (t.equals(topics.kanbanRecoveryState().name())) {
                            onState(stateSerde.deserialize(t, r.value()));
                        } else if (t.equals(topics.officeRunState().name())) {
                            io.recourse.avro.RunState rs = runStateSerde.deserialize(t, r.value());
                            if ("declined".equals(rs.getStatus()) && ledger.runs.containsKey(rs.getRunId())) {
                                ledger.finishedRuns.add(rs.getRunId()); // ended without finishing (e.g. dispatch_unconfirmed)
                            }
                        } else {
                            onRoute(routeSerde.deserialize(t, r.value()));
                        }
                    }
                } finally {
                    inPoll = false;
                }
            }
        } catch (org.apache.kafka.common.errors.InterruptException | InterruptedException e) {
            // closing
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    private void onRetry(RetryCommand c) {
        Scenario s = scenarios.get(c.sessionId());
        if (s == null || !ledger.commandsSeen.add(c.commandId())) {
            return; // not ours (hostile/corpus sessions) or a duplicate: the audit reports duplicates from the topic
        }
        int now = latest.getOrDefault(c.sessionId(), 0);
        if (c.expectedGeneration() != now) {
            kanbanAck(c, "failed", "superseded", null);
            return;
        }
        int generation = now + 1;
        kanbanAck(c, "dispatched", null, generation);
        publishKanbanTurn(s, generation, s.turn(c.attempt()), c);
    }

    private void onState(io.recourse.avro.RecoveryState st) {
        String session = st.getSessionId();
        Scenario s = scenarios.get(session);
        if (s == null) {
            return;
        }
        String status = st.getStatus();
        if ("scheduled".equals(status) && st.getAttempt() == 1 && Audit.TERMINAL.contains(ledger.kanbanLastStatus.getOrDefault(session, ""))) {
            ledger.kanbanLastStatus.put(session, status); // a new chain
        } else if (!Audit.TERMINAL.contains(ledger.kanbanLastStatus.getOrDefault(session, ""))) {
            ledger.kanbanLastStatus.put(session, status); // the chain's latest status; once terminal it stays so
        }
        KanbanKind kind = ledger.sessions.get(session);
        if (!"scheduled".equals(status) || ledger.triggers.containsKey(session)) {
            return;
        }
        if (kind == KanbanKind.NEW_PROMPT) {
            ledger.triggers.put(session, "new prompt during the countdown");
            int generation = latest.getOrDefault(session, 0) + 1;
            publishKanbanTurn(s, generation, Turn.COMPLETED, null);
        } else if (kind == KanbanKind.CANCEL) {
            ledger.triggers.put(session, "cancel_retry during the countdown");
            ObjectNode c = JSON.createObjectNode().put("action", "cancel_retry").put("session_id", session)
                    .put("expected_generation", st.getGeneration()).put("occurred_at", Instant.now().toString());
            RecordHeaders h = new RecordHeaders();
            Corpora.Secret secret = secretOf.get(session);
            if (secret != null) {
                h.add(new RecordHeader("authorization", bytes("Bearer " + secret.secret())));
            }
            producer.send(new ProducerRecord<>(topics.sessionControls().name(), null, bytes(session), bytes(c.toString()), h));
        }
    }

    private void kanbanAck(RetryCommand c, String status, String reason, Integer generation) {
        ObjectNode ack = JSON.createObjectNode().put("command_id", c.commandId()).put("status", status);
        if (reason != null) {
            ack.put("reason", reason);
        }
        ack.put("session_id", c.sessionId());
        if (generation != null) {
            ack.put("prompt_generation", generation);
        }
        ack.put("occurred_at", Instant.now().toString());
        RecordHeaders h = new RecordHeaders();
        Corpora.Secret secret = secretOf.get(c.sessionId());
        if (secret != null) {
            h.add(new RecordHeader("x-context", bytes(secret.inContext())));
        }
        producer.send(new ProducerRecord<>(topics.kanbanDispatchAcks().name(), null, bytes(c.sessionId()), bytes(ack.toString()), h));
        ledger.acks.incrementAndGet();
    }

    private void onRoute(io.recourse.avro.RouteCommand c) {
        String run = c.getRunId();
        OfficeKind kind = ledger.runs.get(run);
        if (kind == null || !ledger.commandsSeen.add(c.getCommandId()) || "decline".equals(c.getAction())) {
            return;
        }
        int n = officeDispatches.merge(run, 1, Integer::sum);
        String session;
        if ("retry_same_route".equals(c.getAction()) && officeSession.containsKey(run)) {
            session = officeSession.get(run);
        } else {
            session = run + "-s" + n;
        }
        officeSession.put(run, session);
        int generation = latest.getOrDefault(session, 0) + 1;
        ObjectNode ack = JSON.createObjectNode().put("command_id", c.getCommandId()).put("status", "dispatched")
                .put("run_id", run).put("workspace_id", c.getWorkspaceId()).put("session_id", session)
                .put("prompt_generation", generation).put("occurred_at", Instant.now().toString());
        RecordHeaders h = new RecordHeaders();
        Corpora.Secret secret = secretOf.get(run);
        if (secret != null) {
            h.add(new RecordHeader("x-context", bytes(secret.inContext())));
        }
        producer.send(new ProducerRecord<>(topics.officeDispatchAcks().name(), null, bytes(c.getWorkspaceId()),
                bytes(ack.toString()), h));
        ledger.acks.incrementAndGet();
        String end = switch (kind) {
            case OK -> "ok";
            case SHORT_RETRY -> n == 1 ? "capacity" : "ok";
            case PARK_AND_WAKE -> n <= 2 ? "quota" : "ok";
        };
        publishOfficeTurn(run, session, generation, c, end, secret);
    }

    private void publishOfficeTurn(String run, String session, int generation, io.recourse.avro.RouteCommand c, String end,
                                   Corpora.Secret secret) {
        String sample = switch (end) {
            case "capacity" -> "codex_capacity_jsonrpc_error";
            case "quota" -> "codex_usage_limit_with_reset";
            default -> "claude_completed_with_tool";
        };
        List<ObjectNode> turn = new ArrayList<>();
        ObjectNode prompt = frames.frame(sample, 0);
        String origin = switch (c.getAction()) {
            case "retry_same_route" -> "retry";
            case "fresh_session_continuation" -> "continuation";
            default -> "scheduled";
        };
        prompt.put("prompt_origin", origin).put("command_id", c.getCommandId());
        if (origin.equals("retry")) {
            prompt.put("retry_of_generation", generation - 1);
        }
        turn.add(prompt);
        switch (end) {
            case "capacity" -> {
                turn.add(frames.frame(sample, 1));
                turn.add(frames.frame(sample, 2));
            }
            case "quota" -> {
                ObjectNode http = frames.frame(sample, 1);
                ((ObjectNode) http.get("payload").get("body").get("error")).put("resets_in_seconds", 15);
                turn.add(http);
                turn.add(frames.frame(sample, 2));
            }
            default -> {
                turn.add(frames.frame(sample, 1));
                turn.add(frames.frame(sample, 6));
            }
        }
        long first = seq.getOrDefault(session, 1L);
        Instant at = Instant.now();
        for (int i = 0; i < turn.size(); i++) {
            ObjectNode f = turn.get(i);
            f.put("session_id", session).put("prompt_generation", generation).put("seq", first + i)
                    .put("occurred_at", at.plusMillis(i).toString()).put("profile_kind", "dynamic")
                    .put("workspace_id", c.getWorkspaceId()).put("run_id", run).put("task_id", "task-" + run)
                    .put("execution_profile_id", c.getExecutionProfileId())
                    .put("provider_id", c.getProviderId()).put("model_id", c.getModelId());
            ObjectNode payload = (ObjectNode) f.get("payload");
            if (payload.has("jsonrpc") && payload.has("id")) {
                payload.put("id", 100 + generation);
            }
        }
        seq.put(session, first + turn.size());
        latest.merge(session, generation, Math::max);
        if (!end.equals("ok")) {
            ledger.failingTurns.add(session + "/" + generation);
        }
        send(topics.agentFrames().name(), session + "/" + generation, turn, secret);
        if (end.equals("ok")) {
            ObjectNode fin = JSON.createObjectNode().put("type", "run_finished").put("run_id", run)
                    .put("workspace_id", c.getWorkspaceId()).put("occurred_at", Instant.now().plusMillis(10).toString());
            producer.send(new ProducerRecord<>(topics.officeRunRequests().name(), bytes(c.getWorkspaceId()), bytes(fin.toString())));
            ledger.finishedRuns.add(run);
        }
    }

    /** True when every Kanban chain the dispatcher saw is terminal and every Office run was finished. */
    boolean settled() {
        for (Map.Entry<String, KanbanKind> e : ledger.sessions.entrySet()) {
            if (!e.getValue().fails()) {
                continue;
            }
            String st = ledger.kanbanLastStatus.get(e.getKey());
            if (st == null || !Audit.TERMINAL.contains(st)) {
                return false;
            }
        }
        return ledger.finishedRuns.size() == ledger.runs.size();
    }

    /** A one-line progress summary. */
    String progress() {
        long terminal = ledger.sessions.entrySet().stream().filter(e -> e.getValue().fails())
                .filter(e -> Audit.TERMINAL.contains(ledger.kanbanLastStatus.getOrDefault(e.getKey(), ""))).count();
        long failing = ledger.sessions.values().stream().filter(KanbanKind::fails).count();
        return "kanban chains ended " + terminal + "/" + failing + ", office runs ended " + ledger.finishedRuns.size() + "/"
                + ledger.runs.size() + ", frames " + ledger.frames.get() + ", acks " + ledger.acks.get();
    }

    private static ObjectNode obj(ObjectNode parent, String field) {
        return parent.get(field) instanceof ObjectNode o ? o : parent.putObject(field);
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        running.set(false);
        resume();
        if (thread != null) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        consumer.close();
        producer.close();
    }
}
