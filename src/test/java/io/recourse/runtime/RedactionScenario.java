package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.config.RecourseConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No output topic ever holds a planted secret (DESIGN §9), on a real broker with
 * exactly_once_v2 running the whole Recourse topology.
 *
 * <p><b>Given</b> failing turns (provider error object, HTTP 529 with headers and body, update
 * metadata, a final chunk before {@code end_turn}, a launch failure, an abandoned turn whose
 * evidence matches no rule, a process exit, a dynamic-profile 429, a replay-safe overload the
 * Kanban owner retries, and a generation-0 {@code session_stopped}) whose every text field that reaches evidence carries fake secrets:
 * API keys ({@code sk-…}, {@code sk-ant-…}, {@code ghp_…}, {@code github_pat_…}), bearer tokens,
 * {@code Authorization:} headers, {@code password=}/{@code cookie} values, e-mail addresses,
 * {@code /home/<user>/} paths, URLs with credentials and query tokens — in the error
 * message/data, stderr lines, HTTP headers/body, update {@code _meta} and text, the final chunk,
 * lifecycle messages, the prompt and turn configuration, and the provider and model ids.
 *
 * <p><b>Then</b> every record (key, value, header values, decoded as text) of every topic the
 * application writes — classifications, unclassified-evidence, the session-event repartition
 * topics, store changelogs, the Kanban recovery state and retry commands, and the Office outputs
 * where present — contains none of them.
 * Excluded by design: {@code recourse.agent-frames} (the input) and {@code recourse.dlq}, which
 * carries a rejected frame's original bytes so it can be replayed (DESIGN §3) — it is an
 * operator topic, not an output, and its access must be restricted instead.
 *
 * <p>The secrets are generated per run (no literal secret lives in the source). Subclasses
 * supply the broker.
 */
public abstract class RedactionScenario {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    /** Context words that must survive, proving the planted fields really reached the outputs. */
    private static final String MARKER = "QUASAR_FAULT";

    @TempDir
    public Path stateDir;

    public abstract TestBroker broker();

    /** One planted secret: the text planted and the parts of it that must never appear in an output. */
    public record Secret(String kind, String planted, List<String> mustNotAppear) {

        Secret(String kind, String planted, String... mustNotAppear) {
            this(kind, planted, List.of(mustNotAppear));
        }
    }

    private final List<Secret> secrets = plantedSecrets();

    @Test
    public void no_output_record_contains_a_secret_planted_in_any_frame_field() throws Exception {
        String app = "recourse-redaction-it-" + UUID.randomUUID();
        Map<String, String> settings = new HashMap<>(Map.of(
                RecourseConfig.BOOTSTRAP_SERVERS, broker().bootstrapServers(),
                RecourseConfig.TOPICS_CREATE, "true",
                RecourseConfig.TOPIC_PARTITIONS, "2",
                RecourseConfig.OWNER_PARTITIONS, "2",
                RecourseConfig.APPLICATION_ID, app,
                RecourseConfig.STATE_DIR, stateDir.toString()));
        // keep repartition records readable for the scan
        settings.put(StreamsConfig.REPARTITION_PURGE_INTERVAL_MS_CONFIG, String.valueOf(Long.MAX_VALUE));
        RecourseConfig config = RecourseConfig.of(settings);
        String framesTopic = config.topicName(RecourseConfig.TOPIC_AGENT_FRAMES);
        String dlqTopic = config.topicName(RecourseConfig.TOPIC_DLQ);
        Instant t0 = Instant.now().minusSeconds(60);

        Map<String, List<ObjectNode>> turns = turns(t0);

        try (RecourseRunner runner = new RecourseRunner(config).start();
                KafkaProducer<byte[], byte[]> producer = producer();
                Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers()))) {
            // when the failing turns are published
            for (Map.Entry<String, List<ObjectNode>> turn : turns.entrySet()) {
                for (ObjectNode frame : turn.getValue()) {
                    producer.send(new ProducerRecord<>(framesTopic, bytes(turn.getKey()), bytes(frame.toString())));
                }
            }
            producer.flush();

            // then, once Recourse has classified them and caught up on every topic it reads
            String classifications = config.topicName(RecourseConfig.TOPIC_CLASSIFICATIONS);
            String unclassified = config.topicName(RecourseConfig.TOPIC_UNCLASSIFIED_EVIDENCE);
            String retryCommands = config.topicName(RecourseConfig.TOPIC_KANBAN_RETRY_COMMANDS);
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                assertThat(readCommitted(classifications)).as("classifications").hasSizeGreaterThanOrEqualTo(FAILING_CLASSIFIED);
                assertThat(readCommitted(unclassified)).as("unclassified evidence").isNotEmpty();
                assertThat(readCommitted(retryCommands)).as("kanban retry commands").isNotEmpty();
                assertThat(caughtUp(admin, app)).as("the application has committed the end of every input").isTrue();
            });

            // no record of any topic it wrote holds a planted secret
            Set<String> scanned = new TreeSet<>();
            Map<String, List<String>> leaks = new TreeMap<>();
            Map<String, Integer> records = new TreeMap<>();
            for (String topic : admin.listTopics(new ListTopicsOptions().listInternal(false)).names().get()) {
                if (topic.equals(framesTopic) || topic.equals(dlqTopic) || topic.startsWith("__")) {
                    continue;
                }
                scanned.add(topic);
                List<ConsumerRecord<byte[], byte[]>> all = readCommitted(topic);
                records.put(topic, all.size());
                for (ConsumerRecord<byte[], byte[]> r : all) {
                    String text = text(r);
                    for (Secret s : secrets) {
                        for (String part : s.mustNotAppear()) {
                            if (text.contains(part)) {
                                leaks.computeIfAbsent(topic, k -> new ArrayList<>()).add(s.kind() + " at partition "
                                        + r.partition() + " offset " + r.offset() + ": …" + around(text, part) + "…");
                            }
                        }
                    }
                }
            }
            System.out.println("redaction scan, records per topic: " + records);
            assertThat(leaks).as("planted secrets found in output topics (records per topic: %s)", records).isEmpty();

            // and the scan was not vacuous: the outputs hold the planted fields' sanitized context
            assertThat(scanned).contains(classifications, unclassified);
            assertThat(records).as("session events reached a repartition topic")
                    .anySatisfy((topic, n) -> assertThat(topic.endsWith("-repartition") && n > 0).isTrue());
            assertThat(records.get(classifications)).isGreaterThanOrEqualTo(FAILING_CLASSIFIED);
            String unclassifiedText = String.join("\n", readCommitted(unclassified).stream().map(RedactionScenario::text).toList());
            assertThat(unclassifiedText).contains(MARKER).contains("https://internal.example.net").contains("[redacted]");
            assertThat(runner.streams().state().isRunningOrRebalancing()).isTrue();
        }
    }

    /** Failing turns of generation ≥ 1 that get a classification from a catalogue rule or a fallback. */
    private static final int FAILING_CLASSIFIED = 8;

    /** Record key → frames, in seq order. Every text field carries {@link #secretText}. */
    private Map<String, List<ObjectNode>> turns(Instant t0) {
        Map<String, List<ObjectNode>> turns = new LinkedHashMap<>();
        String s = secretText();

        // 1. a JSON-RPC error to session/prompt, after stderr, HTTP 529 and update metadata
        String a = "redaction-error";
        turns.put(a + "/1", List.of(
                prompt(a, 1, t0, s),
                frame(a, 1, 2, t0, "stderr", "streaming", JSON.createObjectNode().put("line", "warn: retrying " + s)),
                frame(a, 1, 3, t0, "http", "streaming", http(529, s)),
                frame(a, 1, 4, t0, "acp_update", "streaming", update("session_info_update", s)),
                frame(a, 1, 5, t0, "acp_error", "streaming", error("API Error: 529 overloaded_error " + s, s))));

        // 2. the failure surfaced only as the final chunk before end_turn, after a tool call
        String b = "redaction-final-chunk";
        turns.put(b + "/1", List.of(
                prompt(b, 1, t0, s),
                frame(b, 1, 2, t0, "acp_update", "tool_execution", toolCall(s)),
                frame(b, 1, 3, t0, "acp_update", "streaming", chunk("API Error: 529 {\"type\":\"error\",\"error\":"
                        + "{\"type\":\"overloaded_error\",\"message\":\"Overloaded " + s.replace("\"", "'") + "\"}}")),
                frame(b, 1, 4, t0, "acp_response", "streaming", result("end_turn"))));

        // 3. a launch failure before session/prompt
        String c = "redaction-launch";
        ObjectNode dispatched = JSON.createObjectNode().put("event", "prompt_dispatched").put("message", s);
        turns.put(c + "/1", List.of(
                frame(c, 1, 1, t0, "lifecycle", "process_start", dispatched),
                frame(c, 1, 2, t0, "stderr", "process_start", JSON.createObjectNode().put("line", "spawn: " + s)),
                frame(c, 1, 3, t0, "lifecycle", "process_start", JSON.createObjectNode().put("event", "launch_failed")
                        .put("phase", "process_start").put("message", "cannot start agent: " + s))));

        // 4. evidence no rule matches (→ unclassified-evidence), abandoned by the gateway
        String d = "redaction-unclassified";
        turns.put(d + "/1", List.of(
                prompt(d, 1, t0, s),
                frame(d, 1, 2, t0, "stderr", "streaming", JSON.createObjectNode().put("line", MARKER + " in module " + s)),
                frame(d, 1, 3, t0, "acp_update", "streaming", update("current_mode_update", MARKER + " " + s)),
                frame(d, 1, 4, t0, "lifecycle", "streaming", JSON.createObjectNode().put("event", "turn_abandoned")
                        .put("message", MARKER + " gave up: " + s))));

        // 5. a process exit after stderr
        String e = "redaction-exit";
        turns.put(e + "/1", List.of(
                prompt(e, 1, t0, s),
                frame(e, 1, 2, t0, "stderr", "streaming", JSON.createObjectNode().put("line", "panic: " + s)),
                frame(e, 1, 3, t0, "exit", "shutdown", JSON.createObjectNode().put("code", 1).putNull("signal"))));

        // 6. a dynamic profile (workspace-keyed repartition) with a 429 and retry headers
        String f = "redaction-dynamic";
        List<ObjectNode> dynamic = new ArrayList<>(List.of(
                prompt(f, 1, t0, s),
                frame(f, 1, 2, t0, "http", "streaming", http(429, s)),
                frame(f, 1, 3, t0, "acp_error", "streaming", error("rate_limit_error: 429 Too Many Requests " + s, s))));
        dynamic.forEach(x -> x.put("profile_kind", "dynamic").put("workspace_id", "ws-redaction").put("run_id", "run-redaction")
                .put("execution_profile_id", "ep-redaction"));
        turns.put(f + "/1", dynamic);

        // 7. a second generation of the first session: a retry that fails on its error data only
        turns.put(a + "/2", List.of(
                prompt(a, 2, t0.plusSeconds(20), s).put("prompt_origin", "retry").put("retry_of_generation", 1),
                frame(a, 2, 7, t0.plusSeconds(20), "acp_error", "streaming", error("Internal error", s))));

        // 8. a replay-safe overload the Kanban owner retries (a retry command after the ~5 s first delay)
        String g = "redaction-retry";
        turns.put(g + "/1", List.of(
                prompt(g, 1, t0, s),
                frame(g, 1, 2, t0, "acp_error", "streaming", error("API Error: 529 overloaded_error " + s, s))));

        // 9. the session stops (generation 0)
        turns.put(a + "/0", List.of(frame(a, 0, 9, t0.plusSeconds(40), "lifecycle", "shutdown",
                JSON.createObjectNode().put("event", "session_stopped").put("message", "stopped by " + s))));
        return turns;
    }

    private ObjectNode frame(String session, int generation, long seq, Instant t0, String source, String phase, ObjectNode payload) {
        ObjectNode f = JSON.createObjectNode();
        f.put("session_id", session).put("prompt_generation", generation).put("seq", seq)
                .put("occurred_at", t0.plusSeconds(seq).toString()).put("source", source)
                .put("agent_type", "claude-acp")
                .put("provider_id", "anthropic")
                .put("model_id", "claude-sonnet-4-" + secret("sk").planted())
                .put("profile_kind", "concrete").put("phase", phase)
                .put("task_id", "task-1").put("agent_profile_id", "profile-1");
        f.set("payload", payload);
        return f;
    }

    private ObjectNode prompt(String session, int generation, Instant t0, String s) {
        ObjectNode req = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "session/prompt");
        req.putObject("params").put("sessionId", "acp-1").putArray("prompt").addObject().put("type", "text")
                .put("text", "deploy with " + s);
        ObjectNode f = frame(session, generation, generation == 1 ? 1 : 6, t0, "acp_request", "prompt_send", req);
        f.put("prompt_origin", "user").put("command_id", "cmd-" + session + "-" + generation);
        f.putObject("turn_config").put("model", "claude-sonnet-4").put("api_key", secret("sk").planted()).put("note", s);
        return f;
    }

    private ObjectNode http(int status, String s) {
        ObjectNode p = JSON.createObjectNode().put("status", status);
        ObjectNode h = p.putObject("headers");
        h.put("retry-after", "3");
        h.put("authorization", secret("bearer").planted());
        h.put("x-api-key", secret("sk-ant").planted());
        h.put("cookie", "session=" + secret("cookie").mustNotAppear().get(0));
        h.put("x-request-note", s);
        p.put("body", "{\"type\":\"error\",\"error\":{\"type\":\"" + (status == 429 ? "rate_limit_error" : "overloaded_error")
                + "\",\"message\":\"" + s.replace("\"", "'") + "\"}}");
        return p;
    }

    private static ObjectNode update(String kind, String s) {
        ObjectNode params = JSON.createObjectNode().put("sessionId", "acp-1");
        ObjectNode u = params.putObject("update").put("sessionUpdate", kind);
        u.putObject("content").put("type", "text").put("text", s);
        u.putObject("_meta").putObject("claudeCode").put("note", s).put("systemError", "upstream said " + s);
        return JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "session/update").set("params", params);
    }

    private static ObjectNode toolCall(String s) {
        ObjectNode params = JSON.createObjectNode().put("sessionId", "acp-1");
        params.putObject("update").put("sessionUpdate", "tool_call").put("toolCallId", "call-1").put("title", "curl " + s)
                .put("kind", "execute").put("status", "completed");
        return JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "session/update").set("params", params);
    }

    private static ObjectNode chunk(String text) {
        ObjectNode params = JSON.createObjectNode().put("sessionId", "acp-1");
        params.putObject("update").put("sessionUpdate", "agent_message_chunk").putObject("content").put("type", "text").put("text", text);
        return JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "session/update").set("params", params);
    }

    private static ObjectNode result(String stopReason) {
        ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1);
        r.putObject("result").put("stopReason", stopReason);
        return r;
    }

    private static ObjectNode error(String message, String s) {
        ObjectNode r = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1);
        ObjectNode e = r.putObject("error").put("code", -32603).put("message", message);
        e.putObject("data").put("detail", s).put("password", "pw-" + s.length()).putObject("request").put("url", s);
        return r;
    }

    /** All planted secrets in one line of text, as an agent or provider might print them. */
    private String secretText() {
        StringBuilder b = new StringBuilder();
        for (Secret s : secrets) {
            b.append(s.planted()).append(" ; ");
        }
        return b.toString();
    }

    private Secret secret(String kind) {
        return secrets.stream().filter(s -> s.kind().equals(kind)).findFirst().orElseThrow();
    }

    /** Fresh fake secrets of every shape DESIGN §9 names; random per run, so none is a literal in the source. */
    private static List<Secret> plantedSecrets() {
        List<Secret> out = new ArrayList<>();
        String sk = "sk-proj-" + random(40);
        out.add(new Secret("sk", sk, sk.substring(8)));
        String ant = "sk-ant-api03-" + random(48);
        out.add(new Secret("sk-ant", ant, ant.substring(13)));
        String ghp = "ghp_" + random(36);
        out.add(new Secret("ghp", ghp, ghp.substring(4)));
        String pat = "github_pat_11" + random(22) + "_" + random(40);
        out.add(new Secret("github_pat", pat, pat.substring(13)));
        String bearer = random(44);
        out.add(new Secret("bearer", "Bearer " + bearer, bearer));
        String basic = random(28);
        out.add(new Secret("authorization", "Authorization: Basic " + basic, basic));
        String password = "pw" + random(14);
        out.add(new Secret("password", "password=" + password, password));
        String cookie = random(30);
        out.add(new Secret("cookie", "cookie: sid=" + cookie, cookie));
        String user = "mail" + random(8).toLowerCase();
        out.add(new Secret("email", user + "@corp.example.org", user + "@"));
        String home = "dev" + random(8).toLowerCase();
        out.add(new Secret("home", "/home/" + home + "/project/main.go", home));
        String urlUser = "svc" + random(8).toLowerCase();
        String urlPass = "Pw" + random(16);
        out.add(new Secret("url-credentials", "https://" + urlUser + ":" + urlPass + "@internal.example.net/v1/x", urlUser, urlPass));
        String query = random(24);
        out.add(new Secret("url-query", "https://internal.example.net/hook?access_token=" + query + "&x=1", query));
        String apiKeyFlag = random(20);
        out.add(new Secret("api-key-flag", "--api-key " + apiKeyFlag, apiKeyFlag));
        return out;
    }

    private static String random(int n) {
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append(ALNUM.charAt(RANDOM.nextInt(ALNUM.length())));
        }
        // at least one digit and one letter, so every token has the shapes the sanitizer documents
        return b.replace(0, 2, "Q7").toString();
    }

    /** Up to 24 characters either side of {@code part} in {@code text}, for the failure message. */
    private static String around(String text, String part) {
        int at = text.indexOf(part);
        return text.substring(Math.max(0, at - 24), Math.min(text.length(), at + part.length() + 24)).replaceAll("[^ -~]", ".");
    }

    /** True when the application's consumer group has committed the end of every partition it reads. */
    private boolean caughtUp(Admin admin, String app) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(app).partitionsToOffsetAndMetadata().get();
        if (committed.isEmpty()) {
            return false;
        }
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        committed.keySet().forEach(tp -> latest.put(tp, OffsetSpec.latest()));
        var ends = admin.listOffsets(latest).all().get();
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : committed.entrySet()) {
            if (e.getValue() == null || e.getValue().offset() < ends.get(e.getKey()).offset()) {
                return false;
            }
        }
        return true;
    }

    /** Every committed record of {@code topic}, from the beginning to the end offsets of now. */
    private List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic) {
        Map<String, Object> props = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(out::add);
                return partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p));
            });
            return out;
        }
    }

    /** Key, value and header values as text (ISO-8859-1 keeps every byte, so ASCII secrets in Avro or JSON show). */
    private static String text(ConsumerRecord<byte[], byte[]> r) {
        StringBuilder b = new StringBuilder();
        if (r.key() != null) {
            b.append(new String(r.key(), StandardCharsets.ISO_8859_1)).append('\n');
        }
        if (r.value() != null) {
            b.append(new String(r.value(), StandardCharsets.ISO_8859_1)).append('\n');
        }
        for (Header h : r.headers()) {
            b.append(h.key()).append('=').append(h.value() == null ? "" : new String(h.value(), StandardCharsets.ISO_8859_1)).append('\n');
        }
        return b.toString();
    }

    private KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
