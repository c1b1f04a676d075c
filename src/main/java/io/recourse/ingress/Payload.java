package io.recourse.ingress;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The {@code payload} of a frame (DESIGN §3): the JSON object as the gateway saw it (raw and
 * unsanitized, so it never leaves the evidence stage), and the few members that decide what the
 * evidence stage does with the frame, read by {@link FrameParser} in its one pass over the record.
 * The whole tree is built only when asked ({@link #tree()}: once, then kept), which the evidence
 * stage does only for the frames whose signal it extracts (errors, results with a
 * {@code stopReason}, {@code stderr}, {@code exit}, {@code http}, {@code launch_failed}, updates
 * with failure metadata); ordinary message and thought chunks, tool calls and their updates, and
 * requests never build it.
 *
 * <p>The decisive members are those of the tree's own accessors, e.g. {@link #method()} is
 * {@code tree().get("method")} when that is a JSON string. Two payloads are equal when their trees
 * are.
 *
 * <p>The parser has already checked the payload the way a tree reader would (JSON syntax, no
 * duplicate member at any depth, nesting depth, every string and number decoded, and whether every
 * number is within {@link InputBounds#NUMBER_RULE}: {@link #numbersInRange()}), so
 * {@link #tree()} never fails on a payload it made. Not thread-safe for concurrent first calls of
 * {@link #tree()} beyond building the (equal) tree twice.
 */
public final class Payload {

    /** Members of one object compared by scanning before a hash set takes over (objects are small). */
    private static final int SCANNED_NAMES = 8;

    private static final int LEVEL_PAYLOAD = 0;
    private static final int LEVEL_RESULT = 1;
    private static final int LEVEL_PARAMS = 2;
    private static final int LEVEL_UPDATE = 3;
    private static final int LEVEL_CONTENT = 4;
    private static final int LEVEL_OTHER = 5;

    /** The record value the payload is a slice of, or {@code null} when made from a tree. */
    private final byte[] source;
    private final int offset;
    private final int length;
    private volatile JsonNode tree;

    private final String method;
    private final JsonNode id;
    private final boolean errorObject;
    private final boolean stopReason;
    private final String event;
    private final boolean update;
    private final String sessionUpdate;
    private final String contentText;
    private final JsonNode updateMeta;
    private final JsonNode prompt;
    private final boolean numbersInRange;

    private Payload(byte[] source, int offset, int length, JsonNode tree, Walk w) {
        this.source = source;
        this.offset = offset;
        this.length = length;
        this.tree = tree;
        this.method = w.method;
        this.id = w.id;
        this.errorObject = w.errorObject;
        this.stopReason = w.stopReason;
        this.event = w.event;
        this.update = w.update;
        this.sessionUpdate = w.sessionUpdate;
        this.contentText = w.contentText;
        this.updateMeta = w.updateMeta;
        this.prompt = w.prompt;
        this.numbersInRange = w.numbersInRange;
    }

    /**
     * A payload made from a tree (tools, tests, the parser's slow path): its decisive members are
     * read from the tree's tokens, the tree is kept as it is.
     *
     * @param tree a JSON object
     * @throws IllegalArgumentException when {@code tree} is not a JSON object
     */
    public static Payload of(JsonNode tree) {
        if (tree == null || !tree.isObject()) {
            throw new IllegalArgumentException("a payload is a JSON object");
        }
        try (JsonParser p = FrameParser.VALUES.treeAsTokens(tree)) {
            p.nextToken();
            Walk w = new Walk(p);
            w.object(LEVEL_PAYLOAD);
            return new Payload(null, 0, 0, tree, w);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads the payload object whose {@code START_OBJECT} is {@code p}'s current token, checking it
     * the way the tree reader would (duplicate members at any depth, every string and number
     * decoded); {@code p} is left at its {@code END_OBJECT}.
     *
     * @param source the bytes {@code p} reads (token offsets are byte offsets into them)
     * @throws IOException on malformed JSON, a duplicate member, or too deep nesting
     */
    static Payload read(JsonParser p, byte[] source) throws IOException {
        long start = p.currentTokenLocation().getByteOffset();
        Walk w = new Walk(p);
        w.object(LEVEL_PAYLOAD);
        long end = p.currentLocation().getByteOffset();
        if (start < 0 || end > source.length || end <= start) {
            throw new JsonParseException(p, "payload offsets are unknown");
        }
        return new Payload(source, (int) start, (int) (end - start), null, w);
    }

    /** The whole payload as a tree, built on the first call and kept. Do not modify it. */
    public JsonNode tree() {
        JsonNode t = tree;
        if (t == null) {
            try {
                t = FrameParser.TREE.readValue(source, offset, length);
            } catch (IOException e) {
                throw new IllegalStateException("a checked payload no longer reads as JSON", e);
            }
            tree = t;
        }
        return t;
    }

    /** Whether {@link #tree()} has been built (or the payload was made from one). */
    public boolean hasTree() {
        return tree != null;
    }

    /** The JSON-RPC {@code method} when it is a JSON string, else {@code null}. */
    public String method() {
        return method;
    }

    /**
     * The JSON-RPC {@code id} as {@code tree().get("id")} gives it: {@code null} when absent, a
     * {@code NullNode} when {@code null}.
     */
    public JsonNode id() {
        return id;
    }

    /** Whether the payload's {@code error} is a JSON object. */
    public boolean errorIsObject() {
        return errorObject;
    }

    /** Whether the payload's {@code result} is a JSON object with a non-null {@code stopReason}. */
    public boolean hasStopReason() {
        return stopReason;
    }

    /** The lifecycle {@code event} when it is a JSON string, else {@code null}. */
    public String event() {
        return event;
    }

    /** Whether {@code params.update} is a JSON object (a {@code session/update} notification's update). */
    public boolean hasUpdate() {
        return update;
    }

    /** The update's {@code sessionUpdate} when it is a JSON string, else {@code null}. */
    public String sessionUpdate() {
        return sessionUpdate;
    }

    /** The update's {@code content.text} when {@code content} is an object and {@code text} a JSON string, else {@code null}. */
    public String contentText() {
        return contentText;
    }

    /** The update's {@code _meta} when it is a JSON object, else {@code null}. Do not modify it. */
    public JsonNode updateMeta() {
        return updateMeta;
    }

    /**
     * The request's {@code params.prompt} as {@code tree().path("params").get("prompt")} gives it
     * (any JSON value; {@code null} when absent or {@code params} is not an object). Do not modify it.
     */
    public JsonNode prompt() {
        return prompt;
    }

    /**
     * Whether every number in the payload, at any depth, is within {@link InputBounds#NUMBER_RULE}
     * (an integer of at most {@value InputBounds#MAX_INTEGER_DIGITS} digits, any other number a
     * finite double; DESIGN §3), read in the same pass. {@link FrameParser} rejects a frame whose
     * payload is not, so the evidence stage never meets {@code 1e400} or a 1000-digit integer.
     */
    public boolean numbersInRange() {
        return numbersInRange;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Payload other && tree().equals(other.tree());
    }

    @Override
    public int hashCode() {
        return tree().hashCode();
    }

    /** The tree as compact JSON (builds it). */
    @Override
    public String toString() {
        return tree().toString();
    }

    /**
     * One walk over the payload's tokens: every value is read as the tree reader reads it (strings
     * decoded, numbers converted), member names are checked for duplicates per object, every number
     * is checked against {@link InputBounds#NUMBER_RULE}, and the decisive members are kept.
     */
    private static final class Walk {
        private final JsonParser p;
        /** Member names of the objects being read, outermost first. */
        private String[] names = new String[16];
        private int top;

        String method;
        JsonNode id;
        boolean errorObject;
        boolean stopReason;
        String event;
        boolean update;
        String sessionUpdate;
        String contentText;
        JsonNode updateMeta;
        JsonNode prompt;
        boolean numbersInRange = true;

        Walk(JsonParser p) {
            this.p = p;
        }

        /** Reads the object whose {@code START_OBJECT} is current, up to its {@code END_OBJECT}. */
        void object(int level) throws IOException {
            int from = top;
            Set<String> many = null;
            String name;
            while ((name = p.nextFieldName()) != null) {
                if (many == null) {
                    for (int i = from; i < top; i++) {
                        if (names[i].equals(name)) {
                            throw duplicate();
                        }
                    }
                    if (top - from < SCANNED_NAMES) {
                        if (top == names.length) {
                            names = Arrays.copyOf(names, top * 2);
                        }
                        names[top++] = name;
                    } else {
                        many = new HashSet<>(Arrays.asList(names).subList(from, top));
                        many.add(name);
                        top = from;
                    }
                } else if (!many.add(name)) {
                    throw duplicate();
                }
                member(level, name, p.nextToken());
            }
            if (p.currentToken() != JsonToken.END_OBJECT) {
                throw new JsonParseException(p, "object not closed");
            }
            top = from;
        }

        private JsonParseException duplicate() {
            return new JsonParseException(p, "duplicate member name");
        }

        private void member(int level, String name, JsonToken t) throws IOException {
            switch (level) {
                case LEVEL_PAYLOAD -> {
                    switch (name) {
                        case "method" -> method = text(t);
                        case "id" -> id = subtree();
                        case "error" -> {
                            errorObject = t == JsonToken.START_OBJECT;
                            value(t);
                        }
                        case "result" -> nested(t, LEVEL_RESULT);
                        case "event" -> event = text(t);
                        case "params" -> nested(t, LEVEL_PARAMS);
                        default -> value(t);
                    }
                }
                case LEVEL_RESULT -> {
                    if (name.equals("stopReason") && t != JsonToken.VALUE_NULL) {
                        stopReason = true;
                    }
                    value(t);
                }
                case LEVEL_PARAMS -> {
                    if (name.equals("update") && t == JsonToken.START_OBJECT) {
                        update = true;
                        object(LEVEL_UPDATE);
                    } else if (name.equals("prompt")) {
                        prompt = subtree();
                    } else {
                        value(t);
                    }
                }
                case LEVEL_UPDATE -> {
                    switch (name) {
                        case "sessionUpdate" -> sessionUpdate = text(t);
                        case "content" -> nested(t, LEVEL_CONTENT);
                        case "_meta" -> {
                            if (t == JsonToken.START_OBJECT) {
                                updateMeta = subtree();
                            } else {
                                value(t);
                            }
                        }
                        default -> value(t);
                    }
                }
                case LEVEL_CONTENT -> {
                    if (name.equals("text")) {
                        contentText = text(t);
                    } else {
                        value(t);
                    }
                }
                default -> value(t);
            }
        }

        /** The value whose first token is current, as a tree, its numbers checked. */
        private JsonNode subtree() throws IOException {
            JsonNode n = FrameParser.TREE.readValue(p);
            if (numbersInRange && !InputBounds.hasBoundedNumbers(n)) {
                numbersInRange = false;
            }
            return n;
        }

        /** An object read at {@code level}, any other value read as such. */
        private void nested(JsonToken t, int level) throws IOException {
            if (t == JsonToken.START_OBJECT) {
                object(level);
            } else {
                value(t);
            }
        }

        /** The text of a string value, or {@code null} after reading any other value. */
        private String text(JsonToken t) throws IOException {
            if (t == JsonToken.VALUE_STRING) {
                return p.getText();
            }
            value(t);
            return null;
        }

        /** Reads any value whose first token is current, as the tree reader would. */
        private void value(JsonToken t) throws IOException {
            if (t == null) {
                throw new JsonParseException(p, "unexpected end of input");
            }
            switch (t) {
                case START_OBJECT -> object(LEVEL_OTHER);
                case START_ARRAY -> {
                    JsonToken e;
                    while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
                        value(e);
                    }
                }
                case VALUE_STRING -> p.getTextCharacters();
                case VALUE_NUMBER_INT -> {
                    switch (p.getNumberType()) {
                        case INT -> p.getIntValue();
                        case LONG -> p.getLongValue();
                        default -> {
                            if (!InputBounds.isBoundedInteger(p.getBigIntegerValue())) {
                                numbersInRange = false;
                            }
                        }
                    }
                }
                case VALUE_NUMBER_FLOAT -> {
                    if (!Double.isFinite(p.getDoubleValue())) {
                        numbersInRange = false;
                    }
                }
                case VALUE_TRUE, VALUE_FALSE, VALUE_NULL, VALUE_EMBEDDED_OBJECT -> {
                }
                default -> throw new JsonParseException(p, "unexpected token " + t);
            }
        }
    }
}
