package io.recourse.cli;

import io.recourse.classification.Catalogue;
import io.recourse.classification.CatalogueException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --rules FILE} option of the offline commands: an alternative rule file instead of the
 * shipped catalogue ({@value Catalogue#DEFAULT_RESOURCE}, DESIGN §5.2) — a path, or
 * {@code classpath:RESOURCE} for a rule file shipped in the jar (the previous catalogue,
 * {@value Catalogue#V1_RESOURCE}, for what-if comparison).
 */
public final class RulesOption {

    /** Prefix of a class-path rule file, e.g. {@code classpath:catalogue/provider-errors.v1.json}. */
    public static final String CLASSPATH = "classpath:";

    @Option(names = "--rules", paramLabel = "FILE",
            description = {"Rule file to use instead of the shipped catalogue (" + Catalogue.DEFAULT_RESOURCE + ").",
                    "classpath:RESOURCE reads one shipped in the jar, e.g. classpath:" + Catalogue.V1_RESOURCE + "."})
    String file;

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
        if (file.startsWith(CLASSPATH)) {
            String resource = file.substring(CLASSPATH.length());
            try (InputStream in = RulesOption.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new java.io.FileNotFoundException("no class-path resource " + resource);
                }
                return Catalogue.load(in);
            } catch (java.io.UncheckedIOException e) {
                throw e.getCause();
            }
        }
        try (InputStream in = Files.newInputStream(Path.of(file))) {
            return Catalogue.load(in);
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * Loads the rule file like {@link #load()}, but reports a failure on {@code err}
     * ({@code cannot read rule file …} or {@code invalid rule file …}) instead of throwing.
     *
     * @return the catalogue, or {@code null} after printing why it could not be loaded
     */
    Catalogue loadOrReport(PrintWriter err) {
        try {
            return load();
        } catch (IOException e) {
            err.println("cannot read rule file " + source() + ": " + FramesInput.why(e));
        } catch (CatalogueException e) {
            err.println("invalid rule file " + source() + ": " + e.getMessage());
        }
        return null;
    }

    /** Where the rules come from: the file name or {@code classpath:…}. */
    public String source() {
        return file == null ? CLASSPATH + Catalogue.DEFAULT_RESOURCE : file;
    }
}
