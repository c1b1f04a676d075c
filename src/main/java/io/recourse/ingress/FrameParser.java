package io.recourse.ingress;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.recourse.taxonomy.WireName;
import java.io.IOException;
import java.math.BigInteger;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * Parses and validates one record of {@code recourse.agent-frames} into a {@link Frame}
 * (DESIGN §3). Strict about the required fields and the types of known fields, lenient about
 * unknown fields. Checks, in this order: the raw size bound (before any parsing), the key's
 * syntax, JSON syntax (one object, nothing after it, no duplicate keys at any depth), the
 * fields and their bounds, the numbers in {@code payload} and {@code turn_config}
 * ({@link FrameBounds#checkNumbers}), the routing identity of dynamic profiles, and the agreement of key and body.
 *
 * <p>The key is split at its <em>last</em> {@code /}: the left part must equal
 * {@code session_id} (which may itself contain {@code /}), the right part must be the decimal
 * form of {@code prompt_generation}.
 *
 * <p>How: one pass of Jackson's streaming parser over the envelope's top-level fields;
 * only {@code turn_config} and values that are not of their field's type become trees. The
 * {@code payload} is walked token by token in the same pass ({@link Payload}): every value is
 * decoded as the tree reader would, duplicate member names are checked per object, and only the
 * members that decide what the evidence stage does are kept; its tree is built on demand. Top-level
 * duplicate keys are found with a bit set of the known fields (and a set of the unknown names, if
 * any); nested ones by the payload walk and by the tree reader
 * ({@code FAIL_ON_READING_DUP_TREE_KEY}). Any value that is not a well-formed JSON object is
 * re-read with a strict tree parser, so its rejection message (the position of the first
 * error) is the one the tree parser gives.
 *
 * <p>Thread-safe and stateless apart from its configuration.
 */
public final class FrameParser {

    /** The default size bound of a frame value: 256 KiB (DESIGN §3). */
    public static final int DEFAULT_MAX_BYTES = 256 * 1024;

    /** The reference reader: whole value as one tree, strict about duplicates and trailing data. */
    private static final ObjectMapper STRICT_TREE = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /** Streaming envelope parser: duplicates are checked by {@link Envelope} and by {@link #VALUES}. */
    private static final JsonFactory STREAMING = new JsonFactory();

    /** Reads one value (turn_config, unknown or mistyped values, a payload's tree) from inside the envelope. */
    static final ObjectMapper VALUES = new ObjectMapper(STREAMING)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

    /** {@link #VALUES} with its tree deserializer looked up once (ObjectMapper.readTree looks it up per call). */
    static final ObjectReader TREE = VALUES.readerFor(JsonNode.class);

    private static final String BAD_INSTANT = "must be an RFC 3339 date-time with an offset, e.g. 2026-06-01T12:00:00Z";

    // Known fields, numbered in the order the checks report them.
    private static final int SESSION_ID = 0;
    private static final int PROMPT_GENERATION = 1;
    private static final int SEQ = 2;
    private static final int OCCURRED_AT = 3;
    private static final int SOURCE = 4;
    private static final int PAYLOAD = 5;
    private static final int PROFILE_KIND = 6;
    private static final int WORKSPACE_ID = 7;
    private static final int RUN_ID = 8;
    private static final int EXECUTION_PROFILE_ID = 9;
    private static final int AGENT_TYPE = 10;
    private static final int PROVIDER_ID = 11;
    private static final int MODEL_ID = 12;
    private static final int TASK_ID = 13;
    private static final int AGENT_PROFILE_ID = 14;
    private static final int PHASE = 15;
    private static final int PROMPT_ORIGIN = 16;
    private static final int COMMAND_ID = 17;
    private static final int RETRY_OF_GENERATION = 18;
    private static final int PROMPT_DIGEST = 19;
    private static final int TURN_CONFIG = 20;
    private static final int RESUME_GUARANTEE = 21;
    private static final int REQUIRED = (1 << SESSION_ID) | (1 << PROMPT_GENERATION) | (1 << SEQ) | (1 << OCCURRED_AT)
            | (1 << SOURCE) | (1 << PAYLOAD);

    private static final String[] NAMES = {"session_id", "prompt_generation", "seq", "occurred_at", "source", "payload",
            "profile_kind", "workspace_id", "run_id", "execution_profile_id", "agent_type", "provider_id", "model_id",
            "task_id", "agent_profile_id", "phase", "prompt_origin", "command_id", "retry_of_generation", "prompt_digest",
            "turn_config", "resume_guarantee"};

    /** Per field: the rejection message when present with the wrong type or value. */
    private static final String[] INVALID = new String[NAMES.length];
    /** Per field: the rejection message when required and absent or null. */
    private static final String[] MISSING = new String[NAMES.length];

    static {
        String integer = "must be an integer between 0 and " + Integer.MAX_VALUE;
        for (int f = 0; f < NAMES.length; f++) {
            MISSING[f] = "required field " + NAMES[f] + " is missing";
            INVALID[f] = "field " + NAMES[f] + " must be a string";
        }
        INVALID[SESSION_ID] = "field session_id must be a non-empty string";
        INVALID[PROMPT_GENERATION] = "field prompt_generation " + integer;
        INVALID[RETRY_OF_GENERATION] = "field retry_of_generation " + integer;
        INVALID[SEQ] = "field seq must be an integer between 0 and " + Long.MAX_VALUE;
        INVALID[OCCURRED_AT] = "field occurred_at " + BAD_INSTANT;
        INVALID[SOURCE] = "field source must be one of " + allowed(FrameSource.class);
        INVALID[PROFILE_KIND] = "field profile_kind must be one of " + allowed(ProfileKind.class);
        INVALID[PHASE] = "field phase must be one of " + allowed(Phase.class);
        INVALID[PROMPT_ORIGIN] = "field prompt_origin must be one of " + allowed(PromptOrigin.class);
        INVALID[PAYLOAD] = "field payload must be a JSON object";
        INVALID[TURN_CONFIG] = "field turn_config must be a JSON object";
        INVALID[RESUME_GUARANTEE] = "field resume_guarantee must be a boolean";
    }

    /** {@code occurred_at} present but not a string. */
    private static final String OCCURRED_AT_NOT_TEXT = "field occurred_at must be an RFC 3339 date-time string";

    private final int maxBytes;

    /** A parser with the default size bound of 256 KiB. */
    public FrameParser() {
        this(DEFAULT_MAX_BYTES);
    }

    /**
     * @param maxBytes the largest accepted value in bytes (&gt; 0)
     * @throws IllegalArgumentException when {@code maxBytes} is not positive
     */
    public FrameParser(int maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("frame size bound must be positive, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** The configured size bound in bytes. */
    public int maxBytes() {
        return maxBytes;
    }

    /**
     * Parses one record.
     *
     * @param key   the record key {@code <session_id>/<prompt_generation>}
     * @param value the record value: UTF-8 JSON of the frame envelope
     * @return the validated frame
     * @throws FrameRejectedException with the {@link DlqReason} and a message naming the field;
     *                                never any other exception
     */
    public Frame parse(String key, byte[] value) throws FrameRejectedException {
        if (value == null) {
            throw reject(DlqReason.INVALID_JSON, "frame value is null");
        }
        if (value.length > maxBytes) {
            throw reject(DlqReason.OVERSIZED,
                    "frame value has " + value.length + " bytes, more than the bound of " + maxBytes);
        }
        int slash = key == null ? -1 : key.lastIndexOf('/');
        if (slash < 0) {
            throw reject(DlqReason.INVALID_KEY,
                    key == null ? "record key is null" : "record key has no '/' (expected <session_id>/<prompt_generation>)");
        }
        if (slash == 0 || !isDecimal(key, slash + 1)) {
            throw reject(DlqReason.INVALID_KEY,
                    "record key is not <session_id>/<prompt_generation> with a non-empty session id and a decimal generation");
        }

        Envelope e = new Envelope();
        if (!e.readFrom(value)) {
            // Not exactly one well-formed JSON object without duplicate keys: the strict tree reader
            // names the first error; if it finds none (it always does), its tree is read instead.
            JsonNode root;
            try {
                root = STRICT_TREE.readTree(value);
            } catch (IOException | RuntimeException ex) {
                throw reject(DlqReason.INVALID_JSON, invalidJson(ex));
            }
            if (root == null || !root.isObject()) {
                throw reject(DlqReason.INVALID_JSON, "frame value is not a JSON object");
            }
            e = new Envelope();
            if (!e.readFrom(root)) {
                throw reject(DlqReason.INVALID_JSON, "frame value is not valid JSON");
            }
        }
        e.checkFields();
        Frame frame = e.toFrame();
        checkBounds(frame);
        FrameBounds.checkNumbers(frame);

        if (frame.profileKind() == ProfileKind.DYNAMIC) {
            requireRoutingIdentity("workspace_id", frame.workspaceId());
            requireRoutingIdentity("run_id", frame.runId());
            requireRoutingIdentity("execution_profile_id", frame.executionProfileId());
        }
        String sessionId = frame.sessionId();
        if (sessionId.length() != slash || !key.startsWith(sessionId)) {
            throw reject(DlqReason.KEY_MISMATCH,
                    "record key's session part (before the last '/') differs from field session_id");
        }
        if (!isDecimalOf(key, slash + 1, frame.promptGeneration())) {
            throw reject(DlqReason.KEY_MISMATCH,
                    "record key's generation part (after the last '/') differs from field prompt_generation");
        }
        return frame;
    }

    /**
     * The bounds of DESIGN §3 on a frame whose fields have their types ({@link FrameBounds#check}).
     *
     * @throws FrameRejectedException with {@link DlqReason#INVALID_FIELD}
     */
    static void checkBounds(Frame f) throws FrameRejectedException {
        FrameBounds.check(f);
    }

    /** The rejection message of a value the tree reader refused: the nesting depth, or the position of the error. */
    static String invalidJson(Exception ex) {
        return InputBounds.isTooDeep(ex) ? InputBounds.tooDeep("frame value") : "frame value is not valid JSON" + where(ex);
    }

    private static FrameRejectedException reject(DlqReason reason, String message) {
        return new FrameRejectedException(reason, message, false);
    }

    private static void requireRoutingIdentity(String field, String value) throws FrameRejectedException {
        if (value == null || value.isBlank()) {
            throw reject(DlqReason.MISSING_ROUTING_IDENTITY,
                    "field " + field + " is required when profile_kind is dynamic");
        }
    }

    /** Whether {@code s} from {@code from} on is 1 to 10 ASCII digits. */
    private static boolean isDecimal(String s, int from) {
        int n = s.length() - from;
        if (n == 0 || n > 10) {
            return false;
        }
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** Whether the digits of {@code s} from {@code from} on are {@code Integer.toString(n)}: no sign, no leading zero. */
    private static boolean isDecimalOf(String s, int from, int n) {
        if (s.length() - from > 1 && s.charAt(from) == '0') {
            return false;
        }
        long value = 0;
        for (int i = from; i < s.length(); i++) {
            value = value * 10 + (s.charAt(i) - '0');
        }
        return value == n;
    }

    private static <E extends Enum<E> & WireName> String allowed(Class<E> type) {
        StringBuilder allowed = new StringBuilder();
        for (E e : type.getEnumConstants()) {
            allowed.append(allowed.length() == 0 ? "" : ", ").append(e.wire());
        }
        return allowed.toString();
    }

    /** Only the position: Jackson's own messages quote the offending input, which may hold secrets. */
    private static String where(Exception e) {
        if (e instanceof com.fasterxml.jackson.core.JsonProcessingException jpe && jpe.getLocation() != null) {
            return " (at line " + jpe.getLocation().getLineNr() + ", column " + jpe.getLocation().getColumnNr() + ")";
        }
        return "";
    }

    /**
     * The envelope's fields as read in one pass, before they are checked. A field is
     * <em>present</em> when given and not {@code null}, <em>wrong</em> when present with a type or
     * value its field does not allow; values of wrong fields are read (so their JSON is checked)
     * and dropped.
     */
    private static final class Envelope {
        /** Known fields seen, null or not (duplicate detection). */
        private int seen;
        private int present;
        private int wrong;
        /** Unknown top-level names seen, created on the first one. */
        private Set<String> unknown;
        private boolean occurredAtNotText;

        private String sessionId;
        private int promptGeneration;
        private long seq;
        private Instant occurredAt;
        private FrameSource source;
        private Payload payload;
        /** The record value being read, or {@code null} when reading a tree (the slow path). */
        private byte[] value;
        private ProfileKind profileKind;
        private Phase phase;
        private PromptOrigin promptOrigin;
        private int retryOfGeneration;
        private JsonNode turnConfig;
        private boolean resumeGuarantee;
        private String agentType;
        private String providerId;
        private String modelId;
        private String workspaceId;
        private String runId;
        private String executionProfileId;
        private String taskId;
        private String agentProfileId;
        private String commandId;
        private String promptDigest;

        /**
         * Reads {@code value} as a single JSON object.
         *
         * @return false when it is not exactly one well-formed object without duplicate keys
         *         (also on any error Jackson reports)
         */
        boolean readFrom(byte[] value) {
            this.value = value;
            try (JsonParser p = STREAMING.createParser(value)) {
                return readObject(p);
            } catch (IOException | RuntimeException ex) {
                return false;
            }
        }

        /** Reads an already parsed tree (the slow path): no duplicates or syntax errors remain. */
        boolean readFrom(JsonNode root) {
            try (JsonParser p = VALUES.treeAsTokens(root)) {
                return readObject(p);
            } catch (IOException | RuntimeException ex) {
                return false;
            }
        }

        private boolean readObject(JsonParser p) throws IOException {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            String name;
            while ((name = p.nextFieldName()) != null) {
                JsonToken t = p.nextToken();
                int f = field(name);
                if (f < 0) {
                    if (unknown == null) {
                        unknown = new HashSet<>();
                    }
                    if (!unknown.add(name)) {
                        return false;
                    }
                    TREE.readValue(p); // unused, but must be well-formed JSON like the rest
                    continue;
                }
                int bit = 1 << f;
                if ((seen & bit) != 0) {
                    return false;
                }
                seen |= bit;
                if (t == JsonToken.VALUE_NULL) {
                    continue;
                }
                present |= bit;
                if (!readKnown(p, t, f)) {
                    wrong |= bit;
                    if (t.isStructStart() || t.isNumeric() || t == JsonToken.VALUE_STRING) {
                        TREE.readValue(p);
                    }
                }
            }
            return p.currentToken() == JsonToken.END_OBJECT && p.nextToken() == null;
        }

        /**
         * Reads the value of known field {@code f} at token {@code t}.
         *
         * @return false when its type or value is wrong; a wrong object or array is left unread
         */
        private boolean readKnown(JsonParser p, JsonToken t, int f) throws IOException {
            switch (f) {
                case PAYLOAD -> {
                    if (t != JsonToken.START_OBJECT) {
                        return false;
                    }
                    payload = value != null ? Payload.read(p, value) : Payload.of(TREE.readValue(p));
                    return true;
                }
                case TURN_CONFIG -> {
                    if (t != JsonToken.START_OBJECT) {
                        return false;
                    }
                    turnConfig = TREE.readValue(p);
                    return true;
                }
                case PROMPT_GENERATION, SEQ, RETRY_OF_GENERATION -> {
                    if (t != JsonToken.VALUE_NUMBER_INT) {
                        return false;
                    }
                    return readInteger(p, f);
                }
                case RESUME_GUARANTEE -> {
                    if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
                        return false;
                    }
                    resumeGuarantee = t == JsonToken.VALUE_TRUE;
                    return true;
                }
                default -> {
                    if (t != JsonToken.VALUE_STRING) {
                        if (f == OCCURRED_AT) {
                            occurredAtNotText = true;
                        }
                        return false;
                    }
                    return readText(p.getText(), f);
                }
            }
        }

        /** Integral number, as the tree reader converts it ({@code int}, {@code long} or {@code BigInteger}). */
        private boolean readInteger(JsonParser p, int f) throws IOException {
            long v;
            boolean fitsInt;
            boolean fitsLong = true;
            switch (p.getNumberType()) {
                case INT -> {
                    v = p.getIntValue();
                    fitsInt = true;
                }
                case LONG -> {
                    v = p.getLongValue();
                    fitsInt = v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE;
                }
                default -> {
                    BigInteger b = p.getBigIntegerValue();
                    fitsLong = b.bitLength() <= 63;
                    v = b.longValue();
                    fitsInt = b.bitLength() <= 31;
                }
            }
            if (v < 0) {
                return false;
            }
            if (f == SEQ) {
                seq = v;
                return fitsLong;
            }
            if (!fitsInt) {
                return false;
            }
            if (f == PROMPT_GENERATION) {
                promptGeneration = (int) v;
            } else {
                retryOfGeneration = (int) v;
            }
            return true;
        }

        private boolean readText(String s, int f) {
            switch (f) {
                case SESSION_ID -> {
                    sessionId = s;
                    return !s.isEmpty();
                }
                case OCCURRED_AT -> {
                    occurredAt = Rfc3339.parse(s);
                    return occurredAt != null;
                }
                case SOURCE -> {
                    source = wire(FrameSource.class, s);
                    return source != null;
                }
                case PROFILE_KIND -> {
                    profileKind = wire(ProfileKind.class, s);
                    return profileKind != null;
                }
                case PHASE -> {
                    phase = wire(Phase.class, s);
                    return phase != null;
                }
                case PROMPT_ORIGIN -> {
                    promptOrigin = wire(PromptOrigin.class, s);
                    return promptOrigin != null;
                }
                case AGENT_TYPE -> agentType = s;
                case PROVIDER_ID -> providerId = s;
                case MODEL_ID -> modelId = s;
                case WORKSPACE_ID -> workspaceId = s;
                case RUN_ID -> runId = s;
                case EXECUTION_PROFILE_ID -> executionProfileId = s;
                case TASK_ID -> taskId = s;
                case AGENT_PROFILE_ID -> agentProfileId = s;
                case COMMAND_ID -> commandId = s;
                case PROMPT_DIGEST -> promptDigest = s;
                default -> throw new IllegalStateException("not a string field: " + NAMES[f]);
            }
            return true;
        }

        /** The first failing check in the order DESIGN §3 lists the fields (required ones first). */
        void checkFields() throws FrameRejectedException {
            int failing = (REQUIRED & ~present) | wrong;
            if (failing == 0) {
                return;
            }
            int f = Integer.numberOfTrailingZeros(failing);
            if ((wrong & (1 << f)) == 0) {
                throw reject(DlqReason.MISSING_FIELD, MISSING[f]);
            }
            throw reject(DlqReason.INVALID_FIELD, f == OCCURRED_AT && occurredAtNotText ? OCCURRED_AT_NOT_TEXT : INVALID[f]);
        }

        /** The frame of a checked envelope. */
        Frame toFrame() {
            return new Frame(
                    sessionId,
                    promptGeneration,
                    seq,
                    occurredAt,
                    source,
                    payload,
                    agentType,
                    providerId,
                    modelId,
                    profileKind,
                    workspaceId,
                    runId,
                    executionProfileId,
                    taskId,
                    agentProfileId,
                    phase,
                    promptOrigin,
                    commandId,
                    (present & (1 << RETRY_OF_GENERATION)) != 0 ? retryOfGeneration : null,
                    promptDigest,
                    turnConfig,
                    resumeGuarantee);
        }

        private static <E extends Enum<E> & WireName> E wire(Class<E> type, String s) {
            try {
                return WireName.parse(type, s);
            } catch (IllegalArgumentException unknownValue) {
                return null;
            }
        }

        /** The known field's number, or -1. */
        private static int field(String name) {
            return switch (name) {
                case "session_id" -> SESSION_ID;
                case "prompt_generation" -> PROMPT_GENERATION;
                case "seq" -> SEQ;
                case "occurred_at" -> OCCURRED_AT;
                case "source" -> SOURCE;
                case "payload" -> PAYLOAD;
                case "profile_kind" -> PROFILE_KIND;
                case "workspace_id" -> WORKSPACE_ID;
                case "run_id" -> RUN_ID;
                case "execution_profile_id" -> EXECUTION_PROFILE_ID;
                case "agent_type" -> AGENT_TYPE;
                case "provider_id" -> PROVIDER_ID;
                case "model_id" -> MODEL_ID;
                case "task_id" -> TASK_ID;
                case "agent_profile_id" -> AGENT_PROFILE_ID;
                case "phase" -> PHASE;
                case "prompt_origin" -> PROMPT_ORIGIN;
                case "command_id" -> COMMAND_ID;
                case "retry_of_generation" -> RETRY_OF_GENERATION;
                case "prompt_digest" -> PROMPT_DIGEST;
                case "turn_config" -> TURN_CONFIG;
                case "resume_guarantee" -> RESUME_GUARANTEE;
                default -> -1;
            };
        }
    }
}
