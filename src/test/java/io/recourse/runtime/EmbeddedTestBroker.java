package io.recourse.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** {@link TestBroker} on Recourse's own {@link EmbeddedKafkaBroker}, in a temporary directory deleted on close. */
public final class EmbeddedTestBroker implements TestBroker, AutoCloseable {

    private final Path dir;
    private final EmbeddedKafkaBroker broker;

    private EmbeddedTestBroker(Path dir) {
        this.dir = dir;
        this.broker = new EmbeddedKafkaBroker(dir).start();
    }

    /** Starts a broker on free ports in a new temporary directory. */
    public static EmbeddedTestBroker start() {
        try {
            return new EmbeddedTestBroker(Files.createTempDirectory("recourse-it-broker"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    @Override
    public void close() {
        broker.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
