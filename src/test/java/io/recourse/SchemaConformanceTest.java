package io.recourse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import io.recourse.demo.InteractiveScenarios;
import io.recourse.demo.RoutingDemo;
import io.recourse.demo.RoutingDemoScenario;
import io.recourse.ingress.FrameParser;
import io.recourse.ingress.FrameRejectedException;
import io.recourse.interactive.streams.InteractiveJson;
import io.recourse.routing.RouteConfigJson;
import io.recourse.routing.RouteConfigValidation;
import io.recourse.routing.streams.RoutingJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JSON Schemas of the JSON inputs ({@code schemas/*.schema.json}, DESIGN §3, §6.3, §6.4,
 * §7.1, §7.3) against the parsers that read those inputs: every corpus frame, sample frame,
 * example document and demo input is valid against its schema and accepted by its parser, and a
 * set of invalid documents is rejected by both (schema-valid ⇔ parser-accepted).
 */
public class SchemaConformanceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SCHEMAS = Path.of("schemas");
    private static final Path EXAMPLES = Path.of("examples");
    private static final String ID_300 = "s".repeat(300);

    /** The JSON inputs: their schema file and the parser that reads them (null when accepted, else why not). */
    public enum Input {
        FRAME("agent-frame.schema.json"),
        SESSION_CONTROL("session-control.schema.json"),
        KANBAN_DISPATCH_ACK("kanban-dispatch-ack.schema.json"),
        OFFICE_RUN_REQUEST("office-run-request.schema.json"),
        OFFICE_RUN_CONTROL("office-run-control.schema.json"),
        OFFICE_DISPATCH_ACK("office-dispatch-ack.schema.json"),
        ROUTE_CONFIG("route-config.schema.json");

        final String schemaFile;

        Input(String schemaFile) {
            this.schemaFile = schemaFile;
        }

        /** The input an example file is for, from its name ({@code session-control.cancel_retry.json} → SESSION_CONTROL). */
        static Input ofExample(Path file) {
            String name = file.getFileName().toString();
            if (file.getParent().getFileName().toString().equals("frames")) {
                return FRAME;
            }
            for (Input in : values()) {
                String stem = in.schemaFile.substring(0, in.schemaFile.indexOf(".schema.json"));
                if (name.startsWith(stem + ".") || name.equals(stem + ".json")) {
                    return in;
                }
            }
            throw new IllegalArgumentException("no input for example " + file);
        }

        /** Why the parser rejects {@code json}, or null when it accepts it. */
        public String parserRejection(String json) {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            try {
                switch (this) {
                    case FRAME -> new FrameParser().parse(frameKey(json), bytes);
                    case SESSION_CONTROL -> InteractiveJson.control(bytes);
                    case KANBAN_DISPATCH_ACK -> InteractiveJson.ack(bytes);
                    case OFFICE_RUN_REQUEST -> RoutingJson.runRequestOrFinished(bytes);
                    case OFFICE_RUN_CONTROL -> RoutingJson.runControl(bytes);
                    case OFFICE_DISPATCH_ACK -> RoutingJson.dispatchAck(bytes);
                    case ROUTE_CONFIG -> {
                        RouteConfigValidation v = RouteConfigJson.read(json);
                        return v.isValid() ? null : v.reason();
                    }
                }
                return null;
            } catch (FrameRejectedException e) {
                return e.reason().wire() + ": " + e.getMessage();
            } catch (InteractiveJson.InputRejection e) {
                return e.code() + ": " + e.getMessage();
            } catch (RoutingJson.Rejection e) {
                return e.code() + ": " + e.getMessage();
            }
        }
    }

    private static final Map<Input, Schema> SCHEMA = new EnumMap<>(Input.class);

    static {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
        for (Input in : Input.values()) {
            SCHEMA.put(in, registry.getSchema(read(SCHEMAS.resolve(in.schemaFile)), InputFormat.JSON));
        }
    }

    /** The key a gateway gives a frame: {@code <session_id>/<prompt_generation>} of its body (or a well-formed stand-in). */
    static String frameKey(String json) {
        try {
            JsonNode n = JSON.readTree(json);
            String session = n.path("session_id").isTextual() && !n.path("session_id").asText().isEmpty()
                    ? n.path("session_id").asText() : "s";
            String generation = n.path("prompt_generation").isIntegralNumber() && n.path("prompt_generation").canConvertToInt()
                    && n.path("prompt_generation").intValue() >= 0 ? n.path("prompt_generation").asText() : "0";
            return session + "/" + generation;
        } catch (IOException | RuntimeException e) {
            return "s/0";
        }
    }

    /** The schema's errors for {@code json}; empty when it is valid. */
    public static List<Error> schemaErrors(Input in, String json) {
        return SCHEMA.get(in).validate(json, InputFormat.JSON);
    }

    // ------------------------------------------------------------------ documents both sides accept

    static Stream<Arguments> corpusFrames() {
        return framesOfSequences(Path.of("src/test/resources/corpus/sequences.jsonl"));
    }

    static Stream<Arguments> sampleFrames() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/samples"))) {
            return files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList().stream()
                    .flatMap(SchemaConformanceTest::framesOfSequences);
        }
    }

    static Stream<Arguments> examples() throws IOException {
        List<Arguments> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(EXAMPLES)) {
            for (Path f : files.filter(SchemaConformanceTest::isJsonExample).sorted().toList()) {
                Input in = Input.ofExample(f);
                if (f.toString().endsWith(".jsonl")) {
                    List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                    for (int i = 0; i < lines.size(); i++) {
                        out.add(Arguments.of(in, f + ":" + (i + 1), lines.get(i)));
                    }
                } else {
                    out.add(Arguments.of(in, f.toString(), read(f)));
                }
            }
        }
        return out.stream();
    }

    /** The JSON inputs the demos write (route configuration, run requests, acks, frames of the scripted turns). */
    static Stream<Arguments> demoInputs() {
        Instant at = Instant.parse("2026-06-01T12:00:00.123Z");
        List<Arguments> out = new ArrayList<>();
        out.add(Arguments.of(Input.ROUTE_CONFIG, "RoutingDemoScenario.config()", RouteConfigJson.write(RoutingDemoScenario.config())));
        out.add(Arguments.of(Input.OFFICE_RUN_REQUEST, "RoutingDemo.runRequestJson",
                RoutingDemo.runRequestJson("run-01", RoutingDemoScenario.WORKSPACE, at).toString()));
        out.add(Arguments.of(Input.OFFICE_DISPATCH_ACK, "RoutingDemo.dispatchedAckJson",
                RoutingDemo.dispatchedAckJson("cmd-1", "run-01", RoutingDemoScenario.WORKSPACE, "run-01-s1", 1, at).toString()));
        out.add(Arguments.of(Input.KANBAN_DISPATCH_ACK, "InteractiveScenarios.dispatchAckJson dispatched",
                InteractiveScenarios.dispatchAckJson("cmd-1", "dispatched", null, "demo-kanban-overload", 2, at).toString()));
        out.add(Arguments.of(Input.KANBAN_DISPATCH_ACK, "InteractiveScenarios.dispatchAckJson failed",
                InteractiveScenarios.dispatchAckJson("cmd-1", "failed", "superseded", "demo-kanban-overload", null, at).toString()));
        InteractiveScenarios.Frames frames = new InteractiveScenarios.Frames();
        for (InteractiveScenarios.Scenario s : InteractiveScenarios.all()) {
            for (InteractiveScenarios.Turn t : InteractiveScenarios.Turn.values()) {
                List<ObjectNode> turn = frames.turn(s, 1, 1, at, t, null);
                for (int i = 0; i < turn.size(); i++) {
                    out.add(Arguments.of(Input.FRAME, s.sessionId() + " " + t + " frame " + i, turn.get(i).toString()));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("corpusFrames")
    void every_corpus_frame_is_valid_and_parses(Input in, String where, String json) {
        assertValidAndAccepted(in, where, json);
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("sampleFrames")
    void every_sample_frame_is_valid_and_parses(Input in, String where, String json) {
        assertValidAndAccepted(in, where, json);
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("examples")
    void every_example_is_valid_and_parses(Input in, String where, String json) {
        assertValidAndAccepted(in, where, json);
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("demoInputs")
    void every_demo_input_is_valid_and_parses(Input in, String where, String json) {
        assertValidAndAccepted(in, where, json);
    }

    @ParameterizedTest
    @EnumSource(Input.class)
    void every_input_has_an_example(Input in) throws IOException {
        try (Stream<Path> files = Files.walk(EXAMPLES)) {
            assertThat(files.filter(SchemaConformanceTest::isJsonExample).map(Input::ofExample)).contains(in);
        }
    }

    /** A JSON document or JSON-lines file under {@code examples/} (not the code examples, e.g. {@code examples/python/}). */
    static boolean isJsonExample(Path f) {
        return Files.isRegularFile(f) && (f.toString().endsWith(".json") || f.toString().endsWith(".jsonl"));
    }

    @ParameterizedTest
    @EnumSource(Input.class)
    void every_schema_is_a_valid_draft_2020_12_schema_naming_its_design_section(Input in) throws IOException {
        Schema meta = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
        String schema = read(SCHEMAS.resolve(in.schemaFile));

        assertThat(meta.validate(schema, InputFormat.JSON)).as(in.schemaFile).isEmpty();
        JsonNode node = JSON.readTree(schema);
        assertThat(node.path("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        assertThat(node.path("description").asText()).as(in.schemaFile).containsPattern("DESIGN §\\d");
    }

    // ------------------------------------------------------------------ documents both sides reject

    /** Invalid documents: a missing required field, a wrong type, a value out of range, a bad enum or instant. */
    static Stream<Arguments> invalidDocuments() {
        String frame = """
                {"session_id":"s-1","prompt_generation":1,"seq":1,"occurred_at":"2026-06-01T12:00:00Z","source":"stderr","payload":{"line":"x"}}""";
        String control = """
                {"action":"cancel_retry","session_id":"s-1","expected_generation":1,"occurred_at":"2026-06-01T12:00:00Z"}""";
        String kanbanAck = """
                {"command_id":"c-1","status":"dispatched","session_id":"s-1","prompt_generation":2,"occurred_at":"2026-06-01T12:00:00Z"}""";
        String runRequest = """
                {"type":"run_request","request_id":"r-1","run_id":"run-1","workspace_id":"ws","dynamic_profile_id":"dyn","occurred_at":"2026-06-01T12:00:00Z"}""";
        String runFinished = """
                {"type":"run_finished","run_id":"run-1","workspace_id":"ws","occurred_at":"2026-06-01T12:00:00Z"}""";
        String runControl = """
                {"run_id":"run-1","workspace_id":"ws","action":"retry_now","expected_attempt":1,"occurred_at":"2026-06-01T12:00:00Z"}""";
        String officeAck = """
                {"command_id":"c-1","status":"failed","reason":"dispatch_failed","run_id":"run-1","workspace_id":"ws","occurred_at":"2026-06-01T12:00:00Z"}""";
        String routeConfig = read(EXAMPLES.resolve("route-config.json"));
        String legacy = read(EXAMPLES.resolve("route-config.legacy.json"));
        return Stream.of(
                // the valid documents the cases below are made from: both sides accept them
                Arguments.of(Input.FRAME, "valid frame", frame, true),
                Arguments.of(Input.SESSION_CONTROL, "valid control", control, true),
                Arguments.of(Input.KANBAN_DISPATCH_ACK, "valid Kanban ack", kanbanAck, true),
                Arguments.of(Input.OFFICE_RUN_REQUEST, "valid run request", runRequest, true),
                Arguments.of(Input.OFFICE_RUN_REQUEST, "valid run finished", runFinished, true),
                Arguments.of(Input.OFFICE_RUN_REQUEST, "run request without type (has dynamic_profile_id)",
                        runRequest.replace("\"type\":\"run_request\",", ""), true),
                Arguments.of(Input.OFFICE_RUN_REQUEST, "run finished without type",
                        runFinished.replace("\"type\":\"run_finished\",", ""), true),
                Arguments.of(Input.OFFICE_RUN_REQUEST, "run_finished wins over a dynamic_profile_id",
                        runFinished.replace("}", ",\"dynamic_profile_id\":\"dyn\"}"), true),
                Arguments.of(Input.OFFICE_RUN_CONTROL, "valid run control", runControl, true),
                Arguments.of(Input.OFFICE_DISPATCH_ACK, "valid Office ack", officeAck, true),
                Arguments.of(Input.ROUTE_CONFIG, "valid route config", routeConfig, true),
                Arguments.of(Input.ROUTE_CONFIG, "valid legacy route config", legacy, true),
                Arguments.of(Input.SESSION_CONTROL, "unknown field tolerated", control.replace("}", ",\"ui\":\"web\"}"), true),
                Arguments.of(Input.FRAME, "null optional field", frame.replace("}}", "},\"phase\":null}"), true),

                // frame envelope (DESIGN §3)
                Arguments.of(Input.FRAME, "frame without occurred_at", frame.replace("\"occurred_at\":\"2026-06-01T12:00:00Z\",", ""), false),
                Arguments.of(Input.FRAME, "frame without payload", frame.replace(",\"payload\":{\"line\":\"x\"}", ""), false),
                Arguments.of(Input.FRAME, "frame with a string seq", frame.replace("\"seq\":1", "\"seq\":\"1\""), false),
                Arguments.of(Input.FRAME, "frame with a negative seq", frame.replace("\"seq\":1", "\"seq\":-1"), false),
                Arguments.of(Input.FRAME, "frame with a payload array", frame.replace("{\"line\":\"x\"}", "[1]"), false),
                Arguments.of(Input.FRAME, "frame with an unknown source", frame.replace("stderr", "stdout"), false),
                Arguments.of(Input.FRAME, "frame with a generation beyond int", frame.replace("\"prompt_generation\":1", "\"prompt_generation\":2147483648"), false),
                Arguments.of(Input.FRAME, "frame with occurred_at without offset", frame.replace("12:00:00Z", "12:00:00"), false),
                Arguments.of(Input.FRAME, "frame with occurred_at on 31 April", frame.replace("06-01", "04-31"), false),
                Arguments.of(Input.FRAME, "frame with an empty session_id", frame.replace("\"s-1\"", "\"\""), false),
                Arguments.of(Input.FRAME, "frame with a string resume_guarantee", frame.replace("}}", "},\"resume_guarantee\":\"yes\"}"), false),
                Arguments.of(Input.FRAME, "dynamic frame with a blank workspace_id",
                        frame.replace("}}", "},\"profile_kind\":\"dynamic\",\"workspace_id\":\" \",\"run_id\":\"r\",\"execution_profile_id\":\"e\"}"), false),
                Arguments.of(Input.FRAME, "dynamic frame without run_id",
                        frame.replace("}}", "},\"profile_kind\":\"dynamic\",\"workspace_id\":\"ws\",\"execution_profile_id\":\"e\"}"), false),
                // session control (DESIGN §6.4)
                Arguments.of(Input.SESSION_CONTROL, "control without session_id", control.replace("\"session_id\":\"s-1\",", ""), false),
                Arguments.of(Input.SESSION_CONTROL, "control with an unknown action", control.replace("cancel_retry", "cancel"), false),
                Arguments.of(Input.SESSION_CONTROL, "control with expected_generation beyond int",
                        control.replace("\"expected_generation\":1", "\"expected_generation\":2147483648"), false),
                Arguments.of(Input.SESSION_CONTROL, "control with an object expected_generation",
                        control.replace("\"expected_generation\":1", "\"expected_generation\":{}"), false),
                // Kanban dispatch ack (DESIGN §6.3)
                Arguments.of(Input.KANBAN_DISPATCH_ACK, "Kanban ack without command_id", kanbanAck.replace("\"command_id\":\"c-1\",", ""), false),
                Arguments.of(Input.KANBAN_DISPATCH_ACK, "Kanban ack with an unknown status", kanbanAck.replace("dispatched", "sent"), false),
                // run request / run finished (DESIGN §7.1)
                Arguments.of(Input.OFFICE_RUN_REQUEST, "run request without request_id", runRequest.replace("\"request_id\":\"r-1\",", ""), false),
                Arguments.of(Input.OFFICE_RUN_REQUEST, "run request with an unknown type", runRequest.replace("run_request", "run_started"), false),
                Arguments.of(Input.OFFICE_RUN_REQUEST, "run request with a numeric run_id", runRequest.replace("\"run-1\"", "7"), false),
                Arguments.of(Input.OFFICE_RUN_REQUEST, "run request with a bad occurred_at", runRequest.replace("2026-06-01T12:00:00Z", "yesterday"), false),
                Arguments.of(Input.OFFICE_RUN_REQUEST, "run finished without workspace_id", runFinished.replace("\"workspace_id\":\"ws\",", ""), false),
                // run control (DESIGN §7.3)
                Arguments.of(Input.OFFICE_RUN_CONTROL, "run control without expected_attempt", runControl.replace("\"expected_attempt\":1,", ""), false),
                Arguments.of(Input.OFFICE_RUN_CONTROL, "run control with a string expected_attempt", runControl.replace("\"expected_attempt\":1", "\"expected_attempt\":\"1\""), false),
                Arguments.of(Input.OFFICE_RUN_CONTROL, "run control with expected_attempt beyond int", runControl.replace("\"expected_attempt\":1", "\"expected_attempt\":2147483648"), false),
                Arguments.of(Input.OFFICE_RUN_CONTROL, "run control with an unknown action", runControl.replace("retry_now", "retry_later"), false),
                // Office dispatch ack (DESIGN §7.3)
                Arguments.of(Input.OFFICE_DISPATCH_ACK, "Office ack without run_id", officeAck.replace("\"run_id\":\"run-1\",", ""), false),
                Arguments.of(Input.OFFICE_DISPATCH_ACK, "Office ack without occurred_at", officeAck.replace(",\"occurred_at\":\"2026-06-01T12:00:00Z\"", ""), false),
                Arguments.of(Input.OFFICE_DISPATCH_ACK, "Office ack with a numeric reason", officeAck.replace("\"dispatch_failed\"", "3"), false),
                // route configuration (DESIGN §7.1)
                Arguments.of(Input.ROUTE_CONFIG, "route config version 2", routeConfig.replace("\"version\": 1", "\"version\": 2"), false),
                Arguments.of(Input.ROUTE_CONFIG, "route config without candidates",
                        routeConfigWith(0), false),
                Arguments.of(Input.ROUTE_CONFIG, "route config with an unknown field (ignored)", routeConfig.replace("\"version\": 1", "\"version\": 1, \"priority\": 3"), true),
                Arguments.of(Input.ROUTE_CONFIG, "route config with a string version", routeConfig.replace("\"version\": 1", "\"version\": \"1\""), false),
                Arguments.of(Input.ROUTE_CONFIG, "route config with max_retries 11",
                        routeConfig.replace("\"max_retries\": 3", "\"max_retries\": 11"), false),
                Arguments.of(Input.ROUTE_CONFIG, "route config with initial_interval_seconds 3601",
                        routeConfig.replace("\"initial_interval_seconds\": 5", "\"initial_interval_seconds\": 3601"), false),
                Arguments.of(Input.ROUTE_CONFIG, "route config with max_wait_seconds 604801",
                        routeConfig.replace("\"max_wait_seconds\": 3600", "\"max_wait_seconds\": 604801"), false),
                Arguments.of(Input.ROUTE_CONFIG, "route config with a disabled retry carrying retries",
                        routeConfig.replace("\"enabled\": false, \"max_retries\": 0", "\"enabled\": false, \"max_retries\": 2"), false),
                Arguments.of(Input.ROUTE_CONFIG, "route config without on_exhausted",
                        routeConfig.replace(",\n          \"on_exhausted\": \"stop\"", ""), false),
                Arguments.of(Input.ROUTE_CONFIG, "route config without fallback_enabled", routeConfig.replace("\"fallback_enabled\": true,", ""), false),
                Arguments.of(Input.ROUTE_CONFIG, "route config with a retry section without enabled",
                        routeConfig.replace("\"retry\": {\"enabled\": false, \"max_retries\": 0, \"initial_interval_seconds\": 0}", "\"retry\": {}"), false),
                Arguments.of(Input.ROUTE_CONFIG, "route config with an unknown legacy action", legacy.replace("\"try_next\"}", "\"retry_later\"}"), false),
                Arguments.of(Input.ROUTE_CONFIG, "route config with a legacy key of an outside code",
                        legacy.replace("\"quota_limited\": \"try_next\"", "\"task_error\": \"try_next\""), false),
                Arguments.of(Input.ROUTE_CONFIG, "route config with an explicit policy and a legacy action for one class",
                        routeConfig.replaceFirst("\"policies\"", "\"legacy_actions\": {\"model_capacity\": \"stop\"},\n      \"policies\""), false),
                Arguments.of(Input.ROUTE_CONFIG, "route config with a legacy action next to policy fields",
                        legacy.replace("{\"action\": \"stop\"}", "{\"action\": \"stop\", \"on_exhausted\": \"stop\"}"), false));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("invalidDocuments")
    void the_schema_and_the_parser_agree(Input in, String what, String json, boolean valid) {
        List<Error> errors = schemaErrors(in, json);
        String rejection = in.parserRejection(json);

        assertThat(errors.isEmpty()).as("%s: schema-valid (errors %s)", what, errors).isEqualTo(valid);
        assertThat(rejection == null).as("%s: parser-accepted (rejection %s)", what, rejection).isEqualTo(valid);
    }

    /**
     * The bounds of ids, names, digests, JSON-RPC ids, generations, exact types and the candidate
     * count: the schema rejects each document, and so does the parser, except for the
     * {@link #SCHEMA_ONLY} cases where the schema is stricter (the per-source payload shapes, and
     * instants every consumer reads alike: no leap second, offsets within ±18:00, a {@code T}).
     */
    static Stream<Arguments> schemaBounds() {
        String frame = """
                {"session_id":"s-1","prompt_generation":1,"seq":1,"occurred_at":"2026-06-01T12:00:00Z","source":"stderr","payload":{"line":"x"}}""";
        String control = """
                {"action":"cancel_retry","session_id":"s-1","occurred_at":"2026-06-01T12:00:00Z"}""";
        String runRequest = """
                {"type":"run_request","request_id":"r-1","run_id":"run-1","workspace_id":"ws","dynamic_profile_id":"dyn","occurred_at":"2026-06-01T12:00:00Z"}""";
        return Stream.of(
                Arguments.of(Input.FRAME, "frame with a 300-character session_id", frame.replace("\"s-1\"", "\"" + ID_300 + "\"")),
                Arguments.of(Input.FRAME, "frame with a control character in session_id", frame.replace("\"s-1\"", "\"s\\u00011\"")),
                Arguments.of(Input.FRAME, "frame with an upper-case agent_type", frame.replace("}}", "},\"agent_type\":\"Claude ACP\"}")),
                Arguments.of(Input.FRAME, "frame with a short prompt_digest", frame.replace("}}", "},\"prompt_digest\":\"abc\"}")),
                Arguments.of(Input.FRAME, "frame with a 200-character JSON-RPC id",
                        frame.replace("stderr", "acp_error").replace("{\"line\":\"x\"}", "{\"id\":\"" + "i".repeat(200) + "\"}")),
                Arguments.of(Input.SESSION_CONTROL, "control with a negative expected_generation", control.replace("\"occurred_at\"", "\"expected_generation\":-1,\"occurred_at\"")),
                Arguments.of(Input.SESSION_CONTROL, "control with a 300-character session_id", control.replace("\"s-1\"", "\"" + ID_300 + "\"")),
                Arguments.of(Input.OFFICE_RUN_REQUEST, "run request with a 300-character run_id", runRequest.replace("\"run-1\"", "\"" + ID_300 + "\"")),
                Arguments.of(Input.FRAME, "frame with a leap second", frame.replace("2026-06-01T12:00:00Z", "2016-12-31T23:59:60Z")),
                Arguments.of(Input.FRAME, "frame with an offset of +19:00", frame.replace("12:00:00Z", "12:00:00+19:00")),
                Arguments.of(Input.FRAME, "frame with occurred_at separated by a space", frame.replace("T12", " 12")),
                Arguments.of(Input.FRAME, "stderr frame whose line is a number", frame.replace("{\"line\":\"x\"}", "{\"line\":5}")),
                Arguments.of(Input.SESSION_CONTROL, "control with a numeric session_id", control.replace("\"s-1\"", "5")),
                Arguments.of(Input.SESSION_CONTROL, "control with a string expected_generation",
                        control.replace("\"occurred_at\"", "\"expected_generation\":\"1\",\"occurred_at\"")),
                Arguments.of(Input.OFFICE_RUN_CONTROL, "run control with a negative expected_attempt", """
                        {"run_id":"run-1","workspace_id":"ws","action":"retry_now","expected_attempt":-1,"occurred_at":"2026-06-01T12:00:00Z"}"""),
                Arguments.of(Input.OFFICE_RUN_REQUEST, "run request with occurred_at without seconds", runRequest.replace("12:00:00Z", "12:00Z")),
                Arguments.of(Input.ROUTE_CONFIG, "route config with a string boolean",
                        read(EXAMPLES.resolve("route-config.json")).replaceFirst("\"enabled\": true", "\"enabled\": \"true\"")),
                Arguments.of(Input.ROUTE_CONFIG, "route config with 33 candidates",
                        routeConfigWith(33)));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("schemaBounds")
    void the_schema_rejects_what_the_bounds_exclude(Input in, String what, String json) {
        assertThat(schemaErrors(in, json)).as(what).isNotEmpty();
        if (!SCHEMA_ONLY.contains(what)) {
            assertThat(in.parserRejection(json)).as("%s: the parser enforces this bound too", what).isNotNull();
        }
    }

    /** The cases of {@link #schemaBounds()} where only the schema is strict: the parsers accept these documents. */
    private static final java.util.Set<String> SCHEMA_ONLY = java.util.Set.of(
            "frame with a leap second", "frame with an offset of +19:00", "frame with occurred_at separated by a space",
            "stderr frame whose line is a number");

    @Test
    void a_route_config_may_list_32_candidates() {
        assertThat(schemaErrors(Input.ROUTE_CONFIG, routeConfigWith(32))).isEmpty();
        assertThat(Input.ROUTE_CONFIG.parserRejection(routeConfigWith(32))).isNull();
    }

    /** A route configuration of {@code n} candidates with the default policies. */
    private static String routeConfigWith(int n) {
        StringBuilder candidates = new StringBuilder();
        for (int i = 0; i < n; i++) {
            candidates.append(i == 0 ? "" : ",").append("{\"execution_profile_id\":\"e").append(i)
                    .append("\",\"provider_id\":\"openai\",\"model_id\":\"gpt-5\"}");
        }
        return "{\"dynamic_profile_id\":\"dyn\",\"version\":1,\"fallback_enabled\":true,\"candidates\":[" + candidates + "]}";
    }

    @Test
    void a_run_request_document_is_told_from_a_run_finished_by_type() {
        String finishedWithRequestFields = """
                {"type":"run_finished","run_id":"run-1","workspace_id":"ws","dynamic_profile_id":"dyn","occurred_at":"2026-06-01T12:00:00Z"}""";

        assertThat(RoutingJson.runRequestOrFinished(finishedWithRequestFields.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(io.recourse.routing.RunFinished.class);
        assertThat(schemaErrors(Input.OFFICE_RUN_REQUEST, finishedWithRequestFields)).isEmpty();
        assertThat(schemaErrors(Input.OFFICE_RUN_REQUEST, finishedWithRequestFields.replace("run_finished", "run_request")))
                .as("a run_request needs request_id").isNotEmpty();
    }

    // ------------------------------------------------------------------ helpers

    /** Asserts that {@code json} is valid against {@code in}'s schema and accepted by its parser. */
    public static void assertValidAndAccepted(Input in, String where, String json) {
        assertThat(schemaErrors(in, json)).as("%s against %s", where, in.schemaFile).isEmpty();
        assertThat(in.parserRejection(json)).as("%s: parser rejection", where).isNull();
    }

    /** Every frame of a file of sequences (one JSON object per line with a {@code frames} array), named by line and index. */
    private static Stream<Arguments> framesOfSequences(Path file) {
        List<Arguments> out = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            JsonNode sequence;
            try {
                sequence = JSON.readTree(lines.get(i));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            JsonNode frames = sequence.get("frames");
            for (int j = 0; j < frames.size(); j++) {
                out.add(Arguments.of(Input.FRAME, file.getFileName() + ":" + (i + 1) + " " + sequence.path("name").asText()
                        + " frame " + j, frames.get(j).toString()));
            }
        }
        return out.stream();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
