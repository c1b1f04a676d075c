package io.recourse.streams;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.ClassSecurityValidator;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serde for one generated Avro record type, in Avro <em>single-object encoding</em>
 * (DESIGN §2, §11): a 2-byte marker {@code C3 01}, the writer schema's 8-byte CRC-64-AVRO
 * fingerprint, then the binary body — so a consumer holding the {@code .avsc} files needs no
 * schema registry.
 *
 * <p>The decoder knows the current schema and every released one found on the classpath as
 * {@code schemas/history/<Name>.v1.avsc}, {@code .v2.avsc}, … (consecutive from v1), so stores
 * and changelogs written by an older Recourse still read; the record is resolved into the
 * current schema. A {@code null} value (a tombstone) stays {@code null} both ways.
 *
 * <p>Usage: {@code AvroSerde.of(Classification.class)}; also usable as a plain
 * {@link #encode}/{@link #decode} pair.
 *
 * @param <T> the generated record class
 */
public final class AvroSerde<T extends SpecificRecord> implements Serde<T>, Serializer<T>, Deserializer<T> {

    /** Classpath folder of the released schemas (DESIGN §11). */
    public static final String HISTORY_FOLDER = "schemas/history/";

    /** Package of the classes generated from {@code schemas/}. */
    public static final String GENERATED_PACKAGE = "io.recourse.avro";

    static {
        // Avro 1.12 only instantiates classes it trusts; trust our generated records, nothing else.
        ClassSecurityValidator.ClassSecurityPredicate previous = ClassSecurityValidator.getGlobal();
        ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(previous,
                clazz -> GENERATED_PACKAGE.equals(clazz.getPackageName())));
    }

    private final Class<T> type;
    private final BinaryMessageEncoder<T> encoder;
    private final BinaryMessageDecoder<T> decoder;
    private final List<Schema> history;

    private AvroSerde(Class<T> type) {
        this.type = type;
        SpecificData model = SpecificData.getForClass(type);
        Schema current = SpecificData.get().getSchema(type);
        this.encoder = new BinaryMessageEncoder<>(model, current);
        this.decoder = new BinaryMessageDecoder<>(model, current);
        this.history = Collections.unmodifiableList(historyOf(current.getName(), type.getClassLoader()));
        history.forEach(decoder::addSchema);
    }

    /** A serde for the generated record class {@code type}, e.g. {@code Classification.class}. */
    public static <T extends SpecificRecord> AvroSerde<T> of(Class<T> type) {
        return new AvroSerde<>(type);
    }

    /**
     * The released schemas of record {@code name} on the classpath, oldest first.
     *
     * @throws UncheckedIOException when a history file cannot be read
     * @throws org.apache.avro.SchemaParseException when a history file is not a valid schema
     */
    public static List<Schema> historyOf(String name, ClassLoader loader) {
        List<Schema> out = new ArrayList<>();
        for (int v = 1; ; v++) {
            String resource = HISTORY_FOLDER + name + ".v" + v + ".avsc";
            try (InputStream in = loader.getResourceAsStream(resource)) {
                if (in == null) {
                    return out;
                }
                out.add(new Schema.Parser().parse(in));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + resource, e);
            }
        }
    }

    /** The released schemas this serde's decoder accepts besides the current one, oldest first. */
    public List<Schema> history() {
        return history;
    }

    /** Single-object encoding of {@code value}; {@code null} for {@code null}. */
    public byte[] encode(T value) {
        if (value == null) {
            return null;
        }
        try {
            ByteBuffer buffer = encoder.encode(value);
            byte[] out = new byte[buffer.remaining()];
            buffer.get(out);
            return out;
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("cannot encode " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Decodes a single-object encoded record written with the current or any released schema.
     *
     * @throws SerializationException on a bad header, an unknown fingerprint or a corrupt body
     */
    public T decode(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return decoder.decode(bytes);
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("cannot decode " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public byte[] serialize(String topic, T data) {
        return encode(data);
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        return decode(data);
    }

    @Override
    public Serializer<T> serializer() {
        return this;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this;
    }

    @Override
    public void configure(java.util.Map<String, ?> configs, boolean isKey) {
        // nothing to configure: the schemas come from the generated class and the classpath
    }

    @Override
    public void close() {
        // stateless: shared by every task
    }
}
