package io.recourse.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.kit.AvroSerde;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** DESIGN §11: every current schema reads every released version of itself. */
public class SchemaCompatibilityTest {

    private static final Path SCHEMAS = Path.of("schemas");

    public static Stream<Arguments> currentAndReleased() throws IOException {
        List<Path> current = currentSchemas();
        return current.stream().flatMap(file -> {
            Schema schema = parse(file);
            return AvroSerde.historyOf(schema.getName(), SchemaCompatibilityTest.class.getClassLoader()).stream()
                    .map(old -> Arguments.of(file.getFileName().toString(), schema, old));
        });
    }

    @ParameterizedTest(name = "{0} reads its release {2}")
    @MethodSource("currentAndReleased")
    public void each_current_schema_is_backward_compatible_with_its_history(String file, Schema current, Schema released) {
        var result = SchemaCompatibility.checkReaderWriterCompatibility(current, released);

        assertThat(result.getType())
                .as("%s cannot read data written with a released version: %s", file, result.getResult().getIncompatibilities())
                .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
    }

    @Test
    public void every_current_schema_has_a_released_version_on_the_classpath() throws IOException {
        for (Path file : currentSchemas()) {
            Schema schema = parse(file);
            assertThat(AvroSerde.historyOf(schema.getName(), getClass().getClassLoader()))
                    .as("schemas/history/%s.v1.avsc", schema.getName())
                    .isNotEmpty();
        }
    }

    private static List<Path> currentSchemas() throws IOException {
        try (Stream<Path> files = Files.list(SCHEMAS)) {
            return files.filter(f -> f.toString().endsWith(".avsc")).sorted().toList();
        }
    }

    private static Schema parse(Path file) {
        try {
            return new Schema.Parser().parse(file.toFile());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
