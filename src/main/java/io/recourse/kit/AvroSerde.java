package io.recourse.kit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.message.BinaryMessageDecoder;
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
 * <p>Encoding writes the header and then the body with Avro's generic writer — or, for a type
 * with a hand-written coder ({@link #of(Class, BodyWriter)}), with that coder — into a per-thread
 * reused buffer; the bytes are those of Avro's {@code BinaryMessageEncoder}.
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

    /** Encode buffers larger than this (bytes) are dropped after use rather than kept by the thread. */
    private static final int MAX_RETAINED_BUFFER = 1 << 20;
    /**
     * Per-thread encode buffer and binary encoder, reused across calls (the per-record
     * allocations of {@code BinaryMessageEncoder} showed in the profile). Thread-confined, so a
     * serde instance shared by several stream threads stays safe.
     */
    private static final ThreadLocal<EncodeBuffer> BUFFERS = ThreadLocal.withInitial(EncodeBuffer::new);

    private final Class<T> type;
    private final byte[] header;
    private final BodyWriter<T> body;
    private final BinaryMessageDecoder<T> decoder;
    private final List<Schema> history;

    private AvroSerde(Class<T> type, BodyWriter<T> body) {
        this.type = type;
        SpecificData model = SpecificData.getForClass(type);
        Schema current = SpecificData.get().getSchema(type);
        this.header = singleObjectHeader(current);
        if (body == null) {
            @SuppressWarnings("unchecked")
            DatumWriter<T> writer = (DatumWriter<T>) model.createDatumWriter(current);
            this.body = writer::write;
        } else {
            this.body = body;
        }
        this.decoder = new BinaryMessageDecoder<>(model, current);
        this.history = Collections.unmodifiableList(historyOf(current.getName(), type.getClassLoader()));
        history.forEach(decoder::addSchema);
    }

    /** A serde for the generated record class {@code type}, e.g. {@code Classification.class}. */
    public static <T extends SpecificRecord> AvroSerde<T> of(Class<T> type) {
        return new AvroSerde<>(type, null);
    }

    /**
     * A serde for {@code type} whose encoder writes the binary body with {@code body} instead of
     * Avro's generic writer — a hand-written coder that must produce the very same bytes (e.g.
     * {@link TurnStateCoder}); decoding is unchanged.
     */
    public static <T extends SpecificRecord> AvroSerde<T> of(Class<T> type, BodyWriter<T> body) {
        return new AvroSerde<>(type, java.util.Objects.requireNonNull(body, "body"));
    }

    /** Writes the Avro binary body of one record (no header). */
    @FunctionalInterface
    public interface BodyWriter<T> {
        void write(T value, Encoder out) throws IOException;
    }

    /**
     * The single-object header {@code C3 01} + the schema's CRC-64-AVRO parsing fingerprint,
     * little-endian (the Avro specification; what {@code BinaryMessageEncoder} writes).
     */
    static byte[] singleObjectHeader(Schema schema) {
        ByteBuffer b = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0xC3).put((byte) 0x01).putLong(SchemaNormalization.parsingFingerprint64(schema));
        return b.array();
    }

    /**
     * A reusable growable byte buffer with its reusable direct binary encoder. Not a
     * {@link java.io.ByteArrayOutputStream}: its methods are synchronized, and the direct encoder
     * writes most values a byte at a time (the lock showed in the turn store's encode).
     */
    private static final class EncodeBuffer extends OutputStream {
        BinaryEncoder encoder;
        private byte[] buf = new byte[1024];
        private int count;

        void reset() {
            count = 0;
        }

        @Override
        public void write(int b) {
            if (count == buf.length) {
                grow(1);
            }
            buf[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (buf.length - count < len) {
                grow(len);
            }
            System.arraycopy(b, off, buf, count, len);
            count += len;
        }

        private void grow(int more) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, Math.addExact(count, more)));
        }

        byte[] bytes() {
            return Arrays.copyOf(buf, count);
        }
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
            EncodeBuffer buffer = BUFFERS.get();
            buffer.reset();
            buffer.write(header, 0, header.length);
            BinaryEncoder out = EncoderFactory.get().directBinaryEncoder(buffer, buffer.encoder);
            buffer.encoder = out;
            body.write(value, out);
            out.flush();
            byte[] bytes = buffer.bytes();
            if (bytes.length > MAX_RETAINED_BUFFER) {
                BUFFERS.remove(); // do not keep one outsized record's buffer for the thread's lifetime
            }
            return bytes;
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
