package io.recourse.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import io.recourse.config.ConfigurationException;
import io.recourse.config.RecourseConfig;
import io.recourse.config.TopicSpec;
import io.recourse.runtime.ClusterConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code recourse produce TOPIC FILE|-}: publishes JSON documents (JSON lines, or documents one
 * after another) to one of Recourse's JSON input topics (DESIGN §2), each validated first against
 * the topic's JSON Schema ({@code schemas/*.schema.json}, draft 2020-12, formats asserted; no
 * duplicate keys) and keyed as the topic wants ({@link TopicSpec#keyFields()}: {@code session_id},
 * {@code workspace_id}, {@code dynamic_profile_id}, or {@code <session_id>/<prompt_generation>} for
 * frames). Nothing is sent when any document is invalid: every error is printed with its document's
 * number and line, saying what failed (JSON parse, schema validation, size). Before sending it checks
 * (Admin API, within {@code TopicCheck.CLUSTER_TIMEOUT}) that the topic exists: a missing one is one
 * line naming it and {@code recourse topics create}, exit 1; an unreachable cluster is {@code run}'s
 * startup message, exit 2. Values are sent as compact UTF-8 JSON; the producer waits for every
 * acknowledgement.
 */
@Command(name = "produce", mixinStandardHelpOptions = true,
        description = "Publish JSON documents to a Recourse JSON input topic, validated against its schema and keyed as the topic wants.")
public final class ProduceCommand implements Callable<Integer> {

    /** At most this many bytes per document (the producer's default max.request.size). */
    static final int MAX_DOCUMENT_BYTES = 1024 * 1024;

    @Mixin
    ClusterOptions connection;
    @Spec
    CommandSpec spec;
    @Parameters(index = "0", paramLabel = "TOPIC",
            description = "The input topic: its id (session-controls, agent-frames, office.run-requests, …) or configured name.")
    String topic;
    @Parameters(index = "1", paramLabel = "FILE", description = "A file of JSON documents, or - for standard input.")
    String file;
    @Option(names = "--dry-run", description = "Validate and print the keys; send nothing.")
    boolean dryRun;

    @Override
    public Integer call() throws IOException {
        RecourseConfig c = connection.load();
        PrintWriter out = spec.commandLine().getOut();
        TopicSpec<?, ?> target = resolve(c, topic);
        List<String> errors = new ArrayList<>();
        int jsonErrors = 0;
        List<String[]> records = new ArrayList<>();
        String schemaFile = target.schemaFile().orElseThrow();
        Schema schema = schema(schemaFile);
        ObjectMapper json = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        try (InputStream in = file.equals("-") ? System.in : Files.newInputStream(Path.of(file))) {
            MappingIterator<JsonNode> docs;
            try {
                docs = json.readerFor(JsonNode.class).readValues(in);
            } catch (JsonProcessingException e) { // the first document does not start as JSON
                errors.add("document 1" + lineOf(e) + ": JSON parse error: " + firstLine(e.getOriginalMessage()));
                jsonErrors++;
                docs = null;
            }
            for (int n = 1; docs != null; n++) {
                JsonNode doc;
                long line;
                try {
                    if (!docs.hasNextValue()) {
                        break;
                    }
                    line = docs.getParser().currentTokenLocation().getLineNr();
                    doc = docs.nextValue();
                } catch (JsonProcessingException | RuntimeException e) {
                    errors.add("document " + n + lineOf(e) + ": JSON parse error: " + firstLine(originalMessage(e)));
                    jsonErrors++;
                    break; // the reader cannot resynchronise after a syntax error
                }
                String at = "document " + n + " (line " + line + ")";
                String value = json.writeValueAsString(doc);
                int bytes = value.getBytes(StandardCharsets.UTF_8).length;
                int max = target == TopicSpec.AGENT_FRAMES ? c.frameMaxBytes() : MAX_DOCUMENT_BYTES;
                if (bytes > max) {
                    errors.add(at + ": " + bytes + " bytes, more than " + max);
                    continue;
                }
                var problems = schema.validate(value, InputFormat.JSON);
                if (!problems.isEmpty()) {
                    for (var p : problems) {
                        errors.add(at + ": schema validation (" + schemaFile + "): " + p);
                    }
                    continue;
                }
                records.add(new String[] {key(target, doc), value});
            }
            if (docs != null) {
                docs.close();
            }
        } catch (IOException e) {
            throw new ConfigurationException(file, "", "cannot read: " + firstLine(e.getMessage()));
        }
        if (!errors.isEmpty()) {
            errors.forEach(e -> spec.commandLine().getErr().println(e));
            int other = errors.size() - jsonErrors;
            spec.commandLine().getErr().println("nothing sent: " + errors.size() + " error(s)"
                    + (jsonErrors > 0 && other > 0 ? " (" + jsonErrors + " JSON parse, " + other + " schema validation or size)"
                    : jsonErrors > 0 ? " (JSON parse)" : " (schema validation or size, " + schemaFile + ")"));
            return 1;
        }
        String name = target.name(c);
        if (dryRun) {
            records.forEach(r -> out.println(name + " key=" + r[0]));
            out.println(records.size() + " valid document(s); nothing sent (--dry-run)");
            out.flush();
            return 0;
        }
        try (ClusterConnection cluster = ClusterOptions.connect(c)) {
            if (!ClusterOptions.topicExists(c, cluster, name)) {
                spec.commandLine().getErr().println("nothing sent: topic " + name + " does not exist on " + cluster.bootstrap()
                        + "; create the Recourse topics with `recourse topics create`");
                return 1;
            }
            Map<String, Object> props = new HashMap<>(c.clientProperties(cluster.bootstrap()));
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 15_000);
            props.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
            props.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
                for (String[] r : records) {
                    var meta = producer.send(new ProducerRecord<>(name, r[0].getBytes(StandardCharsets.UTF_8),
                            r[1].getBytes(StandardCharsets.UTF_8))).get();
                    out.println(name + "-" + meta.partition() + "@" + meta.offset() + " key=" + r[0]);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 1;
            } catch (java.util.concurrent.ExecutionException e) {
                throw new ConfigurationException("cannot produce to " + name + " on " + cluster.bootstrap() + ": "
                        + e.getCause().getClass().getSimpleName() + ": " + firstLine(e.getCause().getMessage()));
            }
            out.println("sent " + records.size() + " document(s) to " + name);
            out.flush();
            return 0;
        }
    }

    /** {@code " (line N)"} for a Jackson error that knows its location, else {@code ""}. */
    private static String lineOf(Exception e) {
        if (e instanceof JsonProcessingException j && j.getLocation() != null && j.getLocation().getLineNr() > 0) {
            return " (line " + j.getLocation().getLineNr() + ")";
        }
        return "";
    }

    private static String originalMessage(Exception e) {
        return e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
    }

    /** The JSON input topic named {@code arg}: its id, its configured name, or its key. */
    static TopicSpec<?, ?> resolve(RecourseConfig c, String arg) {
        List<String> inputs = new ArrayList<>();
        for (TopicSpec<?, ?> s : TopicSpec.all()) {
            if (s.schemaFile().isEmpty()) {
                continue;
            }
            inputs.add(s.id());
            if (arg.equals(s.id()) || arg.equals(s.name(c)) || arg.equals(s.key())) {
                return s;
            }
        }
        throw new ConfigurationException("TOPIC", arg, "not a Recourse JSON input topic; one of " + inputs);
    }

    /** The record key of {@code doc} on {@code target} (the schema has checked the fields exist). */
    static String key(TopicSpec<?, ?> target, JsonNode doc) {
        String fields = target.keyFields().orElseThrow();
        if (target == TopicSpec.AGENT_FRAMES) {
            return doc.path("session_id").asText() + "/" + doc.path("prompt_generation").asText();
        }
        return doc.path(fields).asText();
    }

    private static Schema schema(String file) throws IOException {
        try (InputStream in = ProduceCommand.class.getResourceAsStream("/schemas/" + file)) {
            if (in == null) {
                throw new IllegalStateException("schema " + file + " is not on the classpath");
            }
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                    b -> b.schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
            return registry.getSchema(new String(in.readAllBytes(), StandardCharsets.UTF_8), InputFormat.JSON);
        }
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
