package io.recourse.kit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

/**
 * Avro records as plain JSON trees, for people (the HTTP queries, {@code recourse tail}): a record is
 * an object with its fields in schema order, a union is its branch's value (no Avro-JSON
 * {@code {"string": …}} wrapper), {@code timestamp-millis} is an RFC 3339 UTC instant, an enum its
 * symbol, {@code bytes}/{@code fixed} base64. The tree holds exactly the record's values; it is no
 * sanitizer (what a caller shows must already be safe to show).
 */
public final class AvroJson {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private AvroJson() {
    }

    /** The JSON tree of {@code record}; {@code null} (a tombstone) is JSON {@code null}. */
    public static JsonNode toJson(IndexedRecord record) {
        return value(record);
    }

    private static JsonNode value(Object v) {
        if (v == null) {
            return F.nullNode();
        }
        if (v instanceof IndexedRecord r) {
            ObjectNode o = F.objectNode();
            for (Schema.Field f : r.getSchema().getFields()) {
                o.set(f.name(), value(r.get(f.pos())));
            }
            return o;
        }
        if (v instanceof CharSequence || v instanceof GenericEnumSymbol<?> || v instanceof Enum<?>) {
            return F.textNode(v.toString());
        }
        if (v instanceof Instant i) {
            return F.textNode(i.toString());
        }
        if (v instanceof LocalDate d) {
            return F.textNode(d.toString());
        }
        if (v instanceof Boolean b) {
            return F.booleanNode(b);
        }
        if (v instanceof Integer i) {
            return F.numberNode(i);
        }
        if (v instanceof Long l) {
            return F.numberNode(l);
        }
        if (v instanceof Float x) {
            return F.numberNode(x);
        }
        if (v instanceof Double x) {
            return F.numberNode(x);
        }
        if (v instanceof ByteBuffer b) {
            ByteBuffer d = b.duplicate();
            byte[] bytes = new byte[d.remaining()];
            d.get(bytes);
            return F.textNode(Base64.getEncoder().encodeToString(bytes));
        }
        if (v instanceof GenericFixed x) {
            return F.textNode(Base64.getEncoder().encodeToString(x.bytes()));
        }
        if (v instanceof Map<?, ?> m) {
            ObjectNode o = F.objectNode();
            m.forEach((k, x) -> o.set(String.valueOf(k), value(x)));
            return o;
        }
        if (v instanceof Collection<?> c) {
            ArrayNode a = F.arrayNode();
            c.forEach(x -> a.add(value(x)));
            return a;
        }
        return F.textNode(v.toString());
    }
}
