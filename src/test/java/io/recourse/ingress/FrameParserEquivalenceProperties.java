package io.recourse.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.cli.ObservedCase;
import io.recourse.cli.ObservedCaseRenderer;
import io.recourse.evidence.EvidenceAssembler;
import io.recourse.evidence.SignalExtractor;
import io.recourse.evidence.TurnState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;

/**
 * The streaming {@link FrameParser} gives exactly what the tree-based
 * {@link ReferenceFrameParser} gave: the same {@link Frame} (payload and turn_config compared as
 * trees and as text), or the same {@link DlqReason} with the same message — for every corpus
 * frame, every frame of the observed cases as {@link ObservedCaseRenderer} renders them, and for
 * thousands of mutations of them (fields removed, wrong types, null values, huge numbers, unicode,
 * duplicated keys at the top level and nested, trailing or truncated data, broken UTF-8, deep
 * nesting, valid and invalid timestamps, other keys, any value at the payload members that decide,
 * numbers on both sides of the number bound anywhere in payload and turn_config).
 *
 * <p>For every accepted frame, the lazy {@link Payload} has built no tree when parsed; each of its
 * decisive members is what today's consumers read from the reference tree (the expressions below
 * are theirs); {@link SignalExtractor} and {@link EvidenceAssembler} give the same signal and step
 * for both frames and never throw; and the lazy tree is built only for a frame with a signal — never
 * for an ordinary chunk, tool update or request.
 */
class FrameParserEquivalenceProperties {

    /** Fixed so a failure reproduces on every machine; change it to explore other inputs. */
    private static final long SEED = 0x4641_5354_5041_5253L;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** One corpus frame: where it comes from, its record key and its top-level fields as raw JSON text. */
    record Base(String id, String key, List<Field> fields) {
    }

    /** A top-level field: the name as it appears between the quotes (escapes allowed) and the raw JSON value. */
    record Field(String rawName, String rawValue) {
    }

    private static final List<Base> CORPUS = corpus();
    private static final List<Base> OBSERVED = observed();

    private final FrameParser fast = new FrameParser();
    private final ReferenceFrameParser reference = new ReferenceFrameParser();
    /** Accepted frames whose consumers read them without building the payload's tree. */
    private int treeless;

    @Test
    void everyCorpusFrameIsParsedAlikeByBothParsers() {
        assertThat(CORPUS).hasSizeGreaterThan(300);
        for (Base b : CORPUS) {
            byte[] value = render(b.fields()).getBytes(StandardCharsets.UTF_8);

            Object expected = outcome(reference::parse, b.key(), value);

            assertThat(expected).as(b.id()).isInstanceOf(Frame.class);
            assertSameOutcome(b.id(), b.key(), value);
        }
    }

    @Test
    void everyObservedCaseFrameIsParsedAlikeByBothParsers() {
        assertThat(OBSERVED).hasSizeGreaterThan(5000);
        for (Base b : OBSERVED) {
            byte[] value = render(b.fields()).getBytes(StandardCharsets.UTF_8);

            Object result = assertSameOutcome(b.id(), b.key(), value);

            assertThat(result).as(b.id()).isInstanceOf(Frame.class);
        }
    }

    @Test
    void mutatedObservedCaseFramesAreParsedOrRejectedAlike() {
        int[] accepted = {0};
        theory(2000).forAll(integers().between(0, OBSERVED.size() - 1), integers().between(1, 3), longs().all())
                .checkAssert((frame, mutations, seed) -> {
                    Case c = mutate(OBSERVED.get(frame), mutations, new Random(seed));

                    if (assertSameOutcome(c.description(), c.key(), c.value()) instanceof Frame) {
                        accepted[0]++;
                    }
                });
        assertThat(accepted[0]).isGreaterThan(100);
    }

    @Test
    void anyValueAtADecisivePayloadMemberIsReadAsTheTreeReadsIt() {
        List<Base> all = new ArrayList<>(CORPUS);
        all.addAll(OBSERVED);
        int[] accepted = {0};
        int treelessBefore = treeless;
        theory(6000).forAll(integers().between(0, all.size() - 1), integers().between(0, 2), longs().all())
                .checkAssert((frame, mutations, seed) -> {
                    Random r = new Random(seed);
                    Base base = mutatePayloadMember(all.get(frame), r);
                    Case c = mutate(base, mutations, r);

                    Object result = assertSameOutcome(c.description(), c.key(), c.value());

                    if (result instanceof Frame) {
                        accepted[0]++;
                    }
                });
        // most mutations still give a frame, and the consumers' reads reach both lazy and tree paths
        assertThat(accepted[0]).isGreaterThan(2000);
        assertThat(treeless - treelessBefore).isBetween(200, accepted[0] - 200);
    }

    @Test
    void anyNumberAnywhereInPayloadOrTurnConfigIsBoundedAlike() {
        List<Base> all = new ArrayList<>(CORPUS);
        all.addAll(OBSERVED);
        int[] accepted = {0};
        int[] outOfRange = {0};
        theory(3000).forAll(integers().between(0, all.size() - 1), longs().all())
                .checkAssert((frame, seed) -> {
                    Random r = new Random(seed);
                    Base base = all.get(frame);
                    String name = r.nextInt(4) == 0 ? "turn_config" : "payload";
                    JsonNode tree = tree(base.fields(), name);
                    ObjectNode root = tree != null && tree.isObject() ? (ObjectNode) tree.deepCopy()
                            : NODES.objectNode().put("model", "m");
                    List<ObjectNode> objects = new ArrayList<>();
                    collectObjects(root, objects);
                    ObjectNode at = objects.get(r.nextInt(objects.size()));
                    String member = r.nextBoolean() && at.size() > 0 ? pick(r, names(at)) : "n" + r.nextInt(3);
                    at.put(member, RAW);
                    String number = pick(r, NUMBERS);
                    List<Field> fields = with(base.fields(), name, root.toString().replace(quote(RAW), number));
                    byte[] value = render(fields).getBytes(StandardCharsets.UTF_8);

                    Object result = assertSameOutcome(base.id() + " | " + name + " number " + number, base.key(), value);

                    if (result instanceof Frame) {
                        accepted[0]++;
                    } else if (((Rejection) result).message().endsWith(InputBounds.NUMBER_RULE)) {
                        outOfRange[0]++;
                    }
                });
        // both sides of the bound are reached
        assertThat(accepted[0]).isGreaterThan(500);
        assertThat(outOfRange[0]).isGreaterThan(500);
    }

    /** Numbers on both sides of the bound (a finite double; an integer of at most 64 digits). */
    private static final String[] NUMBERS = {"0", "-0", "7", "-32603", "404", "1.5", "-0.0", "1e308", "-1e308",
            "1.7976931348623157e308", "1.7976931348623159e308", "1e309", "1e400", "-1e400", "1E+400", "1e-400", "4.9e-324",
            "9".repeat(64), "-" + "9".repeat(64), "1" + "0".repeat(64), "-1" + "0".repeat(64), "1" + "0".repeat(999),
            "0." + "1".repeat(900), "1" + "0".repeat(500) + ".5", "[1e400]", "{\"a\":[1,2,-1e999]}", "[" + "9".repeat(65) + "]"};

    private static void collectObjects(JsonNode n, List<ObjectNode> out) {
        if (n instanceof ObjectNode o) {
            out.add(o);
        }
        for (JsonNode child : n) {
            collectObjects(child, out);
        }
    }

    private static String[] names(ObjectNode o) {
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names.toArray(new String[0]);
    }

    @Test
    void mutatedCorpusFramesAreParsedOrRejectedAlike() {
        Set<DlqReason> reasons = EnumSet.noneOf(DlqReason.class);
        int[] accepted = {0};
        theory(5000).forAll(integers().between(0, CORPUS.size() - 1), integers().between(1, 4), longs().all())
                .checkAssert((frame, mutations, seed) -> {
                    Case c = mutate(CORPUS.get(frame), mutations, new Random(seed));

                    Object result = assertSameOutcome(c.description(), c.key(), c.value());

                    if (result instanceof Frame) {
                        accepted[0]++;
                    } else {
                        reasons.add(((Rejection) result).reason());
                    }
                });
        // the mutations reach every check, not just the JSON syntax
        assertThat(accepted[0]).isGreaterThan(200);
        assertThat(reasons).contains(DlqReason.INVALID_JSON, DlqReason.MISSING_FIELD, DlqReason.INVALID_FIELD,
                DlqReason.KEY_MISMATCH, DlqReason.MISSING_ROUTING_IDENTITY, DlqReason.INVALID_KEY);
    }

    @Test
    void occurredAtTimestampsAreReadAlike() {
        Base base = CORPUS.get(0);
        int[] accepted = {0};
        theory(20_000).forAll(timestamps()).checkAssert(text -> {
            List<Field> fields = with(base.fields(), "occurred_at", quote(text));
            byte[] value = render(fields).getBytes(StandardCharsets.UTF_8);

            Object result = assertSameOutcome("occurred_at " + text, base.key(), value);

            if (result instanceof Frame) {
                accepted[0]++;
            }
        });
        assertThat(accepted[0]).isBetween(2_000, 18_000);
    }

    @Test
    void arbitraryBytesAreParsedOrRejectedAlike() {
        theory(3000).forAll(longs().all()).checkAssert(seed -> {
            Random r = new Random(seed);
            byte[] value = r.nextBoolean() ? randomBytes(r) : jsonish(r);
            String key = r.nextInt(4) == 0 ? "s/" + r.nextInt(3) : "sess-1/3";

            assertSameOutcome("bytes " + new String(value, StandardCharsets.ISO_8859_1), key, value);
        });
    }

    @Test
    void aValueOverASmallBoundIsOversizedForBothParsers() {
        FrameParser small = new FrameParser(300);
        ReferenceFrameParser smallReference = new ReferenceFrameParser(300);
        for (Base b : CORPUS.subList(0, 40)) {
            byte[] value = render(b.fields()).getBytes(StandardCharsets.UTF_8);

            assertThat(outcome(small::parse, b.key(), value)).as(b.id())
                    .isEqualTo(outcome(smallReference::parse, b.key(), value));
        }
    }

    // --- comparison ---------------------------------------------------------------------------

    @FunctionalInterface
    interface Parse {
        Frame parse(String key, byte[] value) throws FrameRejectedException;
    }

    /** A rejection as the DLQ sees it. */
    record Rejection(DlqReason reason, String message) {
    }

    /** The parsed frame or the rejection; any other exception fails the property. */
    private static Object outcome(Parse parse, String key, byte[] value) {
        try {
            return parse.parse(key, value);
        } catch (FrameRejectedException e) {
            return new Rejection(e.reason(), e.getMessage());
        }
    }

    private Object assertSameOutcome(String description, String key, byte[] value) {
        Object expected = outcome(reference::parse, key, value);
        Object actual = outcome(fast::parse, key, value);
        String as = description + " / key " + key + " / value " + new String(value, StandardCharsets.UTF_8);
        if (expected instanceof Frame e && actual instanceof Frame a) {
            // before anything compares the trees (which builds the lazy one)
            assertThat(a.payload().hasTree()).as(as + ": tree built while parsing").isFalse();
            assertReadsAsTheTree(as, a.payload(), e.payload().tree());
            assertSameEvidence(as, a, e);
            treeless += a.payload().hasTree() ? 0 : 1;
        }
        assertThat(actual).as(as).isEqualTo(expected);
        if (expected instanceof Frame e && actual instanceof Frame a) {
            // equal trees may still differ in field order or number representation; the text shows both
            assertThat(a.toString()).as(as).isEqualTo(e.toString());
            assertThat(a.payload().tree().getClass()).isEqualTo(e.payload().tree().getClass());
        }
        return actual;
    }

    /**
     * Each decisive member of {@code lazy} equals what today's consumers read from {@code tree}
     * (the expressions of EvidenceAssembler, SignalExtractor and FrameBounds before the payload was
     * lazy, copied here).
     */
    private static void assertReadsAsTheTree(String as, Payload lazy, JsonNode tree) {
        JsonNode method = tree.path("method");
        assertThat(lazy.method()).as(as + ": method").isEqualTo(method.isTextual() ? method.asText(null) : null);
        assertThat("session/prompt".equals(lazy.method())).as(as).isEqualTo("session/prompt".equals(tree.path("method").asText(null)));
        JsonNode id = tree.get("id");
        assertThat(lazy.id()).as(as + ": id").isEqualTo(id);
        if (id != null) {
            assertThat(lazy.id().getClass()).as(as).isEqualTo(id.getClass());
            assertThat(lazy.id().toString()).as(as).isEqualTo(id.toString());
        }
        assertThat(lazy.errorIsObject()).as(as + ": error").isEqualTo(tree.path("error").isObject());
        JsonNode result = tree.get("result");
        assertThat(lazy.hasStopReason()).as(as + ": stopReason")
                .isEqualTo(tree.path("result").hasNonNull("stopReason"))
                .isEqualTo(result != null && result.isObject() && result.hasNonNull("stopReason"));
        JsonNode event = tree.path("event");
        assertThat(lazy.event()).as(as + ": event").isEqualTo(event.isTextual() ? event.asText(null) : null);
        for (String word : new String[] {"session_stopped", "prompt_dispatched", "launch_failed", "turn_abandoned"}) {
            assertThat(word.equals(lazy.event())).as(as + ": event " + word)
                    .isEqualTo(word.equals(tree.path("event").asText(null)))
                    .isEqualTo(word.equals(attempt(() -> treeText(tree.get("event")))));
        }
        assertThat(lazy.prompt()).as(as + ": params.prompt").isEqualTo(tree.path("params").get("prompt"));
        if (lazy.prompt() != null) {
            assertThat(lazy.prompt().getClass()).as(as).isEqualTo(tree.path("params").get("prompt").getClass());
        }
        JsonNode params = tree.get("params");
        JsonNode update = params == null ? null : params.get("update");
        update = update != null && update.isObject() ? update : null;
        assertThat(lazy.hasUpdate()).as(as + ": update").isEqualTo(update != null);
        if (update == null) {
            return;
        }
        String kind = update.path("sessionUpdate").asText("");
        for (String word : new String[] {"agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update"}) {
            assertThat(word.equals(lazy.sessionUpdate())).as(as + ": sessionUpdate " + word).isEqualTo(word.equals(kind));
        }
        JsonNode sessionUpdate = update.get("sessionUpdate");
        assertThat(lazy.sessionUpdate()).as(as + ": sessionUpdate")
                .isEqualTo(sessionUpdate != null && sessionUpdate.isTextual() ? sessionUpdate.textValue() : null);
        JsonNode content = update.get("content");
        String text = content != null && content.isObject() && content.path("text").isTextual() ? content.get("text").asText() : null;
        assertThat(lazy.contentText()).as(as + ": content text").isEqualTo(text);
        JsonNode meta = update.get("_meta");
        assertThat(lazy.updateMeta()).as(as + ": _meta").isEqualTo(meta != null && meta.isObject() ? meta : null);
    }

    /** SignalExtractor's text of a value: a string as itself, a number in decimal, else compact JSON. */
    private static String treeText(JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        return v.isTextual() ? v.asText() : v.isIntegralNumber() ? v.bigIntegerValue().toString()
                : v.isNumber() ? v.decimalValue().toPlainString() : v.toString();
    }

    private static final SignalExtractor EXTRACTOR = new SignalExtractor();
    private static final EvidenceAssembler ASSEMBLER = new EvidenceAssembler();
    /** A turn whose session/prompt request (id 7) is known, so errors are matched by id. */
    private static final TurnState PROMPTED = promptedTurn();

    /**
     * The consumers give the same for both frames, from a fresh turn and from one whose prompt is
     * known, and never throw on an accepted frame; the lazy tree is built only for a frame with a
     * signal.
     */
    private static void assertSameEvidence(String as, Frame lazy, Frame reference) {
        Instant at = lazy.occurredAt();
        Object signal = attempt(() -> EXTRACTOR.extract(lazy));
        assertThat(signal).as(as + ": signal").isEqualTo(attempt(() -> EXTRACTOR.extract(reference)))
                .isNotInstanceOf(Thrown.class);
        Object first = attempt(() -> ASSEMBLER.accept(null, lazy, at));
        assertThat(first).as(as + ": first frame").isEqualTo(attempt(() -> ASSEMBLER.accept(null, reference, at)))
                .isNotInstanceOf(Thrown.class);
        Object afterPrompt = attempt(() -> ASSEMBLER.accept(PROMPTED, lazy, at));
        assertThat(afterPrompt).as(as + ": after the prompt").isEqualTo(attempt(() -> ASSEMBLER.accept(PROMPTED, reference, at)))
                .isNotInstanceOf(Thrown.class);
        if (Optional.empty().equals(signal)) {
            assertThat(lazy.payload().hasTree()).as(as + ": tree built without a signal").isFalse();
        }
    }

    /** What a consumer threw, compared by class and message. */
    record Thrown(String type, String message) {
    }

    /**
     * The answer, or what was thrown: an accepted frame must give an answer (a number beyond a
     * double's range, e.g. {@code 1e400}, would have no RFC 8785 or decimal form; ingress refuses
     * it), so a {@link Thrown} shows a consumer the parser's bounds do not protect.
     */
    private static Object attempt(Supplier<Object> read) {
        try {
            return read.get();
        } catch (RuntimeException e) {
            return new Thrown(e.getClass().getName(), e.getMessage());
        }
    }

    private static TurnState promptedTurn() {
        String prompt = "{\"session_id\":\"sig/p\",\"prompt_generation\":1,\"seq\":1,\"occurred_at\":\"2026-06-01T12:00:00Z\","
                + "\"source\":\"acp_request\",\"phase\":\"prompt_send\",\"payload\":{\"jsonrpc\":\"2.0\",\"id\":7,"
                + "\"method\":\"session/prompt\",\"params\":{\"prompt\":[{\"type\":\"text\",\"text\":\"hi\"}]}}}";
        try {
            Frame f = new FrameParser().parse("sig/p/1", prompt.getBytes(StandardCharsets.UTF_8));
            return ASSEMBLER.accept(null, f, f.occurredAt()).state();
        } catch (FrameRejectedException e) {
            throw new AssertionError(e);
        }
    }

    private static QuickTheory theory(int examples) {
        return qt().withFixedSeed(SEED).withExamples(examples);
    }

    // --- corpus -------------------------------------------------------------------------------

    /** Every frame of {@code sequences.jsonl}, and every signal of {@code signatures.jsonl} as a frame envelope. */
    private static List<Base> corpus() {
        List<Base> out = new ArrayList<>();
        for (JsonNode line : lines("/corpus/sequences.jsonl")) {
            int i = 0;
            for (JsonNode f : line.get("frames")) {
                String key = f.get("session_id").asText() + "/" + f.get("prompt_generation").asInt();
                out.add(new Base(line.get("name").asText() + "#" + i++, key, fields((ObjectNode) f)));
            }
        }
        for (JsonNode line : lines("/corpus/signatures.jsonl")) {
            String id = line.get("id").asText();
            List<JsonNode> signals = new ArrayList<>();
            if (line.has("signal")) {
                signals.add(line.get("signal"));
            } else {
                line.get("signals").forEach(signals::add);
            }
            int seq = 1;
            for (JsonNode s : signals) {
                ObjectNode e = NODES.objectNode();
                e.put("session_id", "sig/" + id).put("prompt_generation", 1).put("seq", seq)
                        .put("occurred_at", "2026-06-01T12:00:0" + (seq % 10) + "Z").put("source", s.get("source").asText());
                e.set("payload", wrap(s.get("source").asText(), s.get("payload")));
                if (line.hasNonNull("agent_type")) {
                    e.put("agent_type", line.get("agent_type").asText());
                }
                if (line.hasNonNull("phase")) {
                    e.put("phase", line.get("phase").asText());
                }
                e.put("profile_kind", seq % 3 == 0 ? "dynamic" : "concrete");
                if (seq % 3 == 0) {
                    e.put("workspace_id", "ws-1").put("run_id", "run-" + id).put("execution_profile_id", "ep-1");
                }
                out.add(new Base(id + "#" + seq, "sig/" + id + "/1", fields(e)));
                seq++;
            }
        }
        return out;
    }

    /** Every frame of every observed case, rendered as {@link ObservedCaseRenderer} renders it. */
    private static List<Base> observed() {
        List<Base> out = new ArrayList<>();
        for (String file : new String[] {"cases-claude", "cases-openai", "cases-others", "holdout-a", "holdout-b", "round3-dev",
                "round3-test", "round4-dev", "round4-test", "round5-dev", "round5-test"}) {
            for (JsonNode line : lines("/corpus/observed/" + file + ".jsonl")) {
                ObservedCase c = ObservedCase.parse(line);
                int i = 0;
                for (JsonNode f : ObservedCaseRenderer.frames(c)) {
                    String key = f.get("session_id").asText() + "/" + f.get("prompt_generation").asInt();
                    out.add(new Base(c.id() + "#" + i++, key, fields((ObjectNode) f)));
                }
            }
        }
        return out;
    }

    /** A signal payload as the gateway would have seen it (corpus README: inner objects are wrapped as JSON-RPC). */
    private static JsonNode wrap(String source, JsonNode payload) {
        return switch (source) {
            case "acp_error" -> NODES.objectNode().put("jsonrpc", "2.0").put("id", 7).set("error", payload);
            case "acp_update" -> NODES.objectNode().put("jsonrpc", "2.0").put("method", "session/update").set("params", payload);
            case "acp_response" -> NODES.objectNode().put("jsonrpc", "2.0").put("id", 7).set("result", payload);
            default -> payload;
        };
    }

    private static List<JsonNode> lines(String resource) {
        try (InputStream in = FrameParserEquivalenceProperties.class.getResourceAsStream(resource)) {
            List<JsonNode> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    out.add(JSON.readTree(line));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(resource, e);
        }
    }

    private static List<Field> fields(ObjectNode frame) {
        List<Field> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = frame.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.add(new Field(e.getKey(), e.getValue().toString()));
        }
        return out;
    }

    private static String render(List<Field> fields) {
        StringBuilder s = new StringBuilder("{");
        for (Field f : fields) {
            s.append(s.length() == 1 ? "" : ",").append('"').append(f.rawName()).append("\":").append(f.rawValue());
        }
        return s.append('}').toString();
    }

    private static List<Field> with(List<Field> fields, String name, String rawValue) {
        List<Field> out = new ArrayList<>(fields);
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).rawName().equals(name)) {
                out.set(i, new Field(name, rawValue));
                return out;
            }
        }
        out.add(new Field(name, rawValue));
        return out;
    }

    private static String quote(String text) {
        return NODES.textNode(text).toString();
    }

    // --- mutations ----------------------------------------------------------------------------

    /** A generated input, with the mutations that made it. */
    record Case(String description, String key, byte[] value) {
    }

    private static final String[] KNOWN = {"session_id", "prompt_generation", "seq", "occurred_at", "source", "payload",
            "agent_type", "provider_id", "model_id", "profile_kind", "workspace_id", "run_id", "execution_profile_id",
            "task_id", "agent_profile_id", "phase", "prompt_origin", "command_id", "retry_of_generation", "prompt_digest",
            "turn_config", "resume_guarantee"};

    private static final String[] ENUM_FIELDS = {"source", "profile_kind", "phase", "prompt_origin"};

    private static final String[] WIRE_WORDS = {"acp_request", "acp_update", "acp_response", "acp_error", "stderr", "exit",
            "http", "lifecycle", "concrete", "dynamic", "auth_check", "process_start", "session_init", "prompt_send",
            "streaming", "tool_execution", "shutdown", "user", "retry", "continuation", "scheduled", "STDERR", "Dynamic",
            " exit", "exit ", "", "smoke_signal", "acp-request", "stderr\u0000", "strea\u006Ding"};

    private static final String ZEROS = "0".repeat(999);

    private static final String[] VALUES = {
            "null", "true", "false", "0", "-0", "1", "-1", "3", "42", "7", "2147483647", "2147483648", "-2147483648",
            "-2147483649", "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
            "-9223372036854775809", "18446744073709551616", "99999999999999999999999999999", "1" + ZEROS, "1" + ZEROS + "0",
            "1.5", "3.0", "0.0", "-0.0", "1e2", "1E+2", "3e0", "1e-2", "1e400", "-1e400", "1e-400", "4.9e-324",
            "123456789012345678901234567890.5", "1" + ZEROS + ".5", "01", "1.", ".5", "+1", "NaN", "Infinity", "-",
            "\"\"", "\" \"", "\"\\t\"", "\"3\"", "\"42\"", "\"sess-1\"", "\"stderr\"", "\"dynamic\"", "\"streaming\"",
            "\"retry\"", "\"2026-06-01T12:00:00Z\"", "\"caf\u00e9 \u4e2d\u6587 \ud83d\ude00\"", "\"\\u00e9\\ud83d\\ude00\"",
            "\"\\ud800\"", "\"\\udc00x\"", "\"\\u0000\"", "\"\\/\\\"\\\\\\b\\f\\n\\r\\t\"", "\"\\x\"", "\"\\u12\"",
            "\"line\nbreak\"", "\"tab\there\"", "\"unterminated", "'single'", "tru", "nul", "fals", "[]", "[1]", "[null]",
            "[1,]", "{}", "{ }", "{\"line\":\"x\"}", "{\"model\":\"gpt-5.5\",\"mode\":null}", "{\"a\":1,\"a\":2}",
            "{\"a\":{\"b\":1,\"b\":1}}", "[{\"a\":1,\"a\":1}]", "{\"a\":[{\"x\":{\"y\":1,\"y\":2}}]}", "{\"a\":1,\"A\":2}",
            "{\"\\u0061\":1,\"a\":2}", "{\"a\":1,}", "{\"a\"}", "{\"a\":01}", "{1:2}", "[1" + ZEROS + "]",
            "{\"n\":1" + ZEROS + "0}", "{\"n\":1" + ZEROS + "}", "\"" + "x".repeat(5000) + "\"", "/* c */ 1", "1 2"};

    private static Case mutate(Base base, int count, Random r) {
        List<Field> fields = new ArrayList<>(base.fields());
        String key = base.key();
        StringBuilder d = new StringBuilder(base.id());
        String prefix = "";
        String suffix = "";
        int bytesMutation = -1;
        for (int m = 0; m < count; m++) {
            int kind = r.nextInt(19);
            d.append(" | ");
            switch (kind) {
                case 0, 1 -> { // remove a field
                    if (!fields.isEmpty()) {
                        Field gone = fields.remove(r.nextInt(fields.size()));
                        d.append("remove ").append(gone.rawName());
                    }
                }
                case 2, 3 -> { // a known field set to another value (wrong type, null, huge number, unicode, …)
                    String name = pick(r, KNOWN);
                    String value = pick(r, VALUES);
                    fields = with(fields, name, value);
                    d.append("set ").append(name);
                }
                case 4 -> { // another timestamp
                    String ts = timestamp(r);
                    fields = with(fields, "occurred_at", quote(ts));
                    d.append("occurred_at ").append(ts);
                }
                case 5 -> { // another enum word
                    String name = pick(r, ENUM_FIELDS);
                    fields = with(fields, name, quote(pick(r, WIRE_WORDS)));
                    d.append("enum ").append(name);
                }
                case 6 -> { // an unknown field
                    String name = r.nextBoolean() ? "gateway_build" : "x" + r.nextInt(3);
                    fields.add(r.nextInt(fields.size() + 1), new Field(name, pick(r, VALUES)));
                    d.append("unknown ").append(name);
                }
                case 7 -> { // a top-level key twice (maybe spelled with an escape)
                    if (!fields.isEmpty()) {
                        Field f = fields.get(r.nextInt(fields.size()));
                        String name = r.nextBoolean() ? f.rawName() : escapeFirst(f.rawName());
                        String value = r.nextBoolean() ? f.rawValue() : pick(r, VALUES);
                        fields.add(r.nextInt(fields.size() + 1), new Field(name, value));
                        d.append("duplicate ").append(name);
                    }
                }
                case 8 -> { // a nested key twice, at any depth of payload or turn_config
                    String name = r.nextInt(4) == 0 ? "turn_config" : "payload";
                    JsonNode tree = tree(fields, name);
                    if (tree == null) {
                        tree = NODES.objectNode().put("model", "m").set("options", NODES.objectNode().put("a", 1));
                    }
                    int objects = countObjects(tree);
                    int target = objects == 0 ? 0 : r.nextInt(objects);
                    StringBuilder s = new StringBuilder();
                    writeWithDuplicate(tree, s, new int[] {0}, target, r.nextBoolean());
                    fields = with(fields, name, s.toString());
                    d.append("nested duplicate in ").append(name).append(" object ").append(target);
                }
                case 9 -> { // something after the object
                    suffix = pick(r, new String[] {" ", "\n", " x", "{}", "}", "null", " // c", "\u0000", ",", "]", "\r\n\t "});
                    d.append("suffix ").append(suffix.replace("\u0000", "\\0"));
                }
                case 10 -> { // something before it
                    prefix = pick(r, new String[] {" ", "\n\t", "\ufeff", "[", "x", "\u00a0"});
                    d.append("prefix");
                }
                case 11, 12 -> { // a byte replaced, or the value cut short
                    bytesMutation = r.nextInt(Integer.MAX_VALUE);
                    d.append(kind == 11 ? "byte " : "truncate ").append(bytesMutation);
                    bytesMutation = kind == 11 ? bytesMutation : -2 - (bytesMutation >>> 1);
                }
                case 13 -> { // a string field with unicode text
                    String name = pick(r, new String[] {"session_id", "agent_type", "model_id", "command_id", "prompt_digest",
                            "workspace_id", "x"});
                    fields = with(fields, name, quote(unicode(r)));
                    d.append("unicode ").append(name);
                }
                case 14 -> { // another record key
                    String session = key.lastIndexOf('/') < 0 ? key : key.substring(0, key.lastIndexOf('/'));
                    key = pick(r, new String[] {key + "0", "0" + key, session + "/03", session + "/9999999999", session + "/",
                            "/" + key, "x/" + key, key.replace('/', '|'), session + "/+3", "", "sess-1/3",
                            session + "/" + r.nextInt(3), session + "/\u0663"});
                    d.append("key ").append(key);
                }
                case 15 -> { // deep nesting
                    int depth = 995 + r.nextInt(10);
                    String open = r.nextBoolean() ? "[" : "{\"a\":";
                    String close = open.equals("[") ? "]" : "}";
                    String nested = open.repeat(depth) + "1" + close.repeat(depth);
                    String name = pick(r, new String[] {"payload", "turn_config", "x", "seq"});
                    fields = with(fields, name, name.equals("payload") || name.equals("turn_config")
                            ? "{\"deep\":" + nested + "}" : nested);
                    d.append("nesting ").append(depth).append(' ').append(open).append(" in ").append(name);
                }
                case 16 -> { // a dynamic profile, maybe without its routing identity
                    fields = with(fields, "profile_kind", "\"dynamic\"");
                    for (String id : new String[] {"workspace_id", "run_id", "execution_profile_id"}) {
                        fields = with(fields, id,
                                pick(r, new String[] {"\"w-1\"", "\"\"", "\"  \"", "null", "\"\\u2003\"", "\"\\u00a0\""}));
                    }
                    d.append("dynamic");
                }
                case 17 -> { // any value inside payload (numbers, unicode, nested duplicates, broken JSON)
                    String raw = fields.stream().filter(f -> f.rawName().equals("payload")).map(Field::rawValue)
                            .findFirst().orElse("{}");
                    String v = "\"v\":" + pick(r, VALUES);
                    fields = with(fields, "payload", raw.startsWith("{") && !raw.equals("{}")
                            ? "{" + v + "," + raw.substring(1) : "{" + v + "}");
                    d.append("payload value");
                }
                default -> { // whitespace between the tokens
                    d.append("whitespace");
                    List<Field> spaced = new ArrayList<>();
                    for (Field f : fields) {
                        spaced.add(new Field(f.rawName(), "\n " + f.rawValue() + "\t"));
                    }
                    fields = spaced;
                }
            }
        }
        byte[] value = (prefix + render(fields) + suffix).getBytes(StandardCharsets.UTF_8);
        if (bytesMutation >= 0 && value.length > 0) {
            int at = bytesMutation % value.length;
            value[at] = (byte) new Random(bytesMutation).nextInt(256);
        } else if (bytesMutation <= -2 && value.length > 0) {
            value = java.util.Arrays.copyOf(value, (-2 - bytesMutation) % value.length);
        }
        return new Case(d.toString(), key, value);
    }

    /** Payload members the parser keeps (and their neighbours the consumers read from the tree). */
    private static final String[][] DECISIVE = {{"method"}, {"id"}, {"error"}, {"error", "code"}, {"result"},
            {"result", "stopReason"}, {"result", "_meta", "sessionFailure"}, {"event"}, {"params"}, {"params", "update"},
            {"params", "update", "sessionUpdate"}, {"params", "update", "content"}, {"params", "update", "content", "text"},
            {"params", "update", "_meta"}, {"params", "update", "_meta", "codex", "error"},
            {"params", "update", "_meta", "sessionFailure"}, {"params", "update", "_meta", "a", "threadStatus", "type"},
            {"params", "prompt"}, {"line"}, {"status"}, {"headers", "x-api-key"}};

    private static final String[] DECISIVE_VALUES = {"\"session/prompt\"", "\"session/update\"", "\"s\\u0065ssion/prompt\"",
            "\"agent_message_chunk\"", "\"agent_thought_chunk\"", "\"tool_call\"", "\"tool_call_update\"", "\"usage_update\"",
            "\"launch_failed\"", "\"turn_abandoned\"", "\"session_stopped\"", "\"prompt_dispatched\"", "\"end_turn\"",
            "\"systemError\"", "\"SYSTEMERROR\"", "{\"sessionFailure\":{\"kind\":\"x\"}}", "{\"threadStatus\":{\"type\":\"systemError\"}}",
            "{\"error\":false}", "{\"error\":null}", "{\"error\":0}", "{\"stopReason\":null}", "{\"stopReason\":\"end_turn\"}",
            "{\"type\":\"text\",\"text\":\"hello\"}", "{\"text\":7}", "{\"text\":\"\"}", "{\"update\":{\"sessionUpdate\":\"tool_call\"}}",
            "[{\"update\":{}}]", "{\"code\":-32000,\"message\":\"boom\"}", "\"7\"", "7.0", "7", "\"" + "i".repeat(129) + "\"",
            "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10,\"a\":11}",
            "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10,\"k\":11}",
            "[{\"x\":1},{\"x\":1,\"y\":{\"x\":2,\"x\":3}}]"};

    private static final String[] SOURCES = {"acp_request", "acp_update", "acp_response", "acp_error", "stderr", "exit", "http",
            "lifecycle"};

    private static final String RAW = "@@raw@@";

    /**
     * {@code base} with one payload member that decides (or a neighbour) set to any value — wrong
     * types, nulls, the words the consumers compare with, nested duplicates, broken JSON — the
     * objects on its path created as needed; sometimes another source, sometimes the member's
     * name spelled with an escape.
     */
    private static Base mutatePayloadMember(Base base, Random r) {
        List<Field> fields = base.fields();
        JsonNode payload = tree(fields, "payload");
        ObjectNode root = payload != null && payload.isObject() ? (ObjectNode) payload.deepCopy() : NODES.objectNode();
        String[] path = DECISIVE[r.nextInt(DECISIVE.length)];
        ObjectNode at = root;
        for (int i = 0; i < path.length - 1; i++) {
            JsonNode next = at.get(path[i]);
            at = next != null && next.isObject() ? (ObjectNode) next : at.putObject(path[i]);
        }
        at.put(path[path.length - 1], RAW);
        String value = r.nextBoolean() ? pick(r, DECISIVE_VALUES) : pick(r, VALUES);
        String raw = root.toString().replace(quote(RAW), value);
        String name = path[path.length - 1];
        if (r.nextInt(4) == 0) {
            raw = raw.replace(quote(name) + ":" + value, "\"" + escapeFirst(name) + "\":" + value);
        }
        fields = with(fields, "payload", raw);
        StringBuilder d = new StringBuilder(base.id()).append(" | payload ").append(String.join(".", path));
        if (r.nextBoolean()) {
            String source = pick(r, SOURCES);
            fields = with(fields, "source", quote(source));
            d.append(" | source ").append(source);
        }
        return new Base(d.toString(), base.key(), fields);
    }

    private static String pick(Random r, String[] options) {
        return options[r.nextInt(options.length)];
    }

    /** {@code seq} as {@code \u0073eq}: the same name to a JSON reader. */
    private static String escapeFirst(String rawName) {
        return rawName.isEmpty() ? rawName : String.format("\\u%04x", (int) rawName.charAt(0)) + rawName.substring(1);
    }

    private static JsonNode tree(List<Field> fields, String name) {
        for (Field f : fields) {
            if (f.rawName().equals(name)) {
                try {
                    JsonNode n = JSON.readTree(f.rawValue());
                    return n != null && n.isContainerNode() ? n : null;
                } catch (IOException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static int countObjects(JsonNode n) {
        int count = n.isObject() && n.size() > 0 ? 1 : 0;
        for (JsonNode child : n) {
            count += countObjects(child);
        }
        return count;
    }

    /** Serializes {@code n}, writing one field of the {@code target}-th non-empty object (pre-order) twice. */
    private static void writeWithDuplicate(JsonNode n, StringBuilder s, int[] seen, int target, boolean last) {
        if (n.isObject()) {
            boolean dup = n.size() > 0 && seen[0]++ == target;
            s.append('{');
            List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
            n.fields().forEachRemaining(entries::add);
            for (int i = 0; i < entries.size(); i++) {
                Map.Entry<String, JsonNode> e = entries.get(i);
                s.append(i == 0 ? "" : ",").append(quote(e.getKey())).append(':');
                writeWithDuplicate(e.getValue(), s, seen, target, last);
            }
            if (dup) {
                Map.Entry<String, JsonNode> again = entries.get(last ? entries.size() - 1 : 0);
                s.append(',').append(quote(again.getKey())).append(":null");
            }
            s.append('}');
        } else if (n.isArray()) {
            s.append('[');
            for (int i = 0; i < n.size(); i++) {
                s.append(i == 0 ? "" : ",");
                writeWithDuplicate(n.get(i), s, seen, target, last);
            }
            s.append(']');
        } else {
            s.append(n.toString());
        }
    }

    private static String unicode(Random r) {
        StringBuilder s = new StringBuilder();
        int n = r.nextInt(12);
        for (int i = 0; i < n; i++) {
            switch (r.nextInt(6)) {
                case 0 -> s.append((char) (0x20 + r.nextInt(0x5f)));
                case 1 -> s.append((char) (0xa0 + r.nextInt(0x700)));
                case 2 -> s.appendCodePoint(0x1f600 + r.nextInt(80));
                case 3 -> s.append((char) (0xd800 + r.nextInt(0x800))); // a lone surrogate
                case 4 -> s.append((char) r.nextInt(0x20));
                default -> s.append((char) (0x4e00 + r.nextInt(0x5000)));
            }
        }
        return s.toString();
    }

    private static byte[] randomBytes(Random r) {
        byte[] b = new byte[r.nextInt(80)];
        r.nextBytes(b);
        if (b.length > 0 && r.nextBoolean()) {
            b[0] = '{';
        }
        return b;
    }

    private static byte[] jsonish(Random r) {
        String[] parts = {"{", "}", "[", "]", "\"", ":", ",", "\"session_id\"", "\"seq\"", "\"payload\"", "1", "-1", "null",
                "true", "\\", "\\u00", "{}", "\"source\":\"stderr\"", "1e999", " ", "\"sess-1\"", "\"prompt_generation\":3"};
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int n = r.nextInt(40);
        for (int i = 0; i < n; i++) {
            out.writeBytes(pick(r, parts).getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    // --- timestamps ---------------------------------------------------------------------------

    /**
     * Mostly RFC 3339-shaped text with every part near or past its bounds (month 0–13, day 0–32,
     * 24:00, 60 s, offsets up to ±24:60, 0–10 fraction digits, leap days in 1900/2000/2024/0000),
     * upper- and lower-case separators, and some random corruption.
     */
    static String timestamp(Random r) {
        if (r.nextInt(20) == 0) {
            return unicode(r);
        }
        int[] years = {0, 1, 1900, 1970, 1999, 2000, 2023, 2024, 2026, 2100, 2400, 9999};
        int year = r.nextBoolean() ? years[r.nextInt(years.length)] : r.nextInt(10_000);
        int month = r.nextInt(5) == 0 ? r.nextInt(14) : 1 + r.nextInt(12);
        int day = r.nextInt(3) == 0 ? 28 + r.nextInt(5) : r.nextInt(5) == 0 ? r.nextInt(33) : 1 + r.nextInt(28);
        int hour = r.nextInt(6) == 0 ? 23 + r.nextInt(2) : r.nextInt(24);
        int minute = r.nextInt(6) == 0 ? 59 + r.nextInt(2) : r.nextInt(60);
        int second = r.nextInt(6) == 0 ? 59 + r.nextInt(3) : r.nextInt(60);
        StringBuilder s = new StringBuilder(String.format("%04d-%02d-%02d", year, month, day));
        s.append(pick(r, new String[] {"T", "T", "t", " ", "x", "TT"}));
        s.append(String.format("%02d:%02d:%02d", hour, minute, second));
        int fraction = r.nextInt(3) == 0 ? 0 : r.nextInt(11);
        if (fraction > 0 || r.nextInt(10) == 0) {
            s.append('.');
            for (int i = 0; i < fraction; i++) {
                s.append((char) ('0' + r.nextInt(10)));
            }
        }
        switch (r.nextInt(8)) {
            case 0, 1 -> s.append('Z');
            case 2 -> s.append('z');
            case 3 -> { } // no offset
            case 4 -> s.append(String.format("%c%02d%02d", r.nextBoolean() ? '+' : '-', r.nextInt(19), r.nextInt(60)));
            default -> {
                int oh = r.nextInt(4) == 0 ? 17 + r.nextInt(8) : r.nextInt(15);
                int om = r.nextInt(5) == 0 ? 59 + r.nextInt(2) : r.nextInt(4) * 15;
                s.append(String.format("%c%02d:%02d", pick(r, new String[] {"+", "-", "\u2212"}).charAt(0), oh, om));
            }
        }
        if (r.nextInt(8) == 0) { // corrupt one character
            int at = r.nextInt(s.length());
            s.setCharAt(at, pick(r, new String[] {"0", "9", ":", "-", ".", " ", "\u0663", "\uff11", "Z", "+", "a"}).charAt(0));
        }
        if (r.nextInt(30) == 0) {
            s.append(pick(r, new String[] {"Z", " ", "0", ":00"}));
        }
        return s.toString();
    }

    private static Gen<String> timestamps() {
        return longs().all().map(s -> timestamp(new Random(s)));
    }
}
