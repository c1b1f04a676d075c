package io.recourse.cli;

import io.recourse.classification.Catalogue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --rules FILE} option of the offline commands: an alternative rule file instead of the
 * shipped catalogue ({@value Catalogue#DEFAULT_RESOURCE}, DESIGN §5.2).
 */
public final class RulesOption {

    @Option(names = "--rules", paramLabel = "FILE",
            description = "Rule file to use instead of the shipped catalogue (" + Catalogue.DEFAULT_RESOURCE + ").")
    Path file;

    /**
     * Loads and validates the rule file (or the shipped catalogue).
     *
     * @throws IOException                                        when the file cannot be read
     * @throws io.recourse.classification.CatalogueException naming the rule when it fails validation
     */
    public Catalogue load() throws IOException {
        if (file == null) {
            return Catalogue.loadDefault();
        }
        try (InputStream in = Files.newInputStream(file)) {
            return Catalogue.load(in);
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Where the rules come from: the file name or {@code classpath:…}. */
    public String source() {
        return file == null ? "classpath:" + Catalogue.DEFAULT_RESOURCE : file.toString();
    }
}
