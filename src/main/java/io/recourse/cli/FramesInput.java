package io.recourse.cli;

import io.recourse.classification.TurnClassifier;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The input of the offline commands: {@code FILE|-} (JSONL frame envelopes, DESIGN §3; {@code -}
 * = standard input) and {@code --corpus} (every line is a {@code sequences.jsonl} object with a
 * {@code frames} array; such lines are also detected without it).
 */
public final class FramesInput {

    @Parameters(index = "0", paramLabel = "FILE|-",
            description = "JSONL of frame envelopes (DESIGN §3), or - for standard input.")
    String file;

    @Option(names = "--corpus",
            description = "Every line is one sequence object with a 'frames' array (corpus sequences.jsonl); "
                    + "such lines are also recognized without this option.")
    boolean corpus;

    /**
     * Opens the input as UTF-8 text; {@code -} is standard input. Malformed bytes decode to
     * U+FFFD, so a bad line is rejected by the parser instead of ending the read.
     *
     * @throws IOException when the file cannot be opened
     */
    BufferedReader open() throws IOException {
        java.io.InputStream in = "-".equals(file) ? System.in : Files.newInputStream(Path.of(file));
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    /**
     * Reads the whole input in one {@link OfflineRun} with {@code classifier}, calling
     * {@code sink} for every turn that closes; rejected lines and the summary go to {@code err}.
     *
     * @return {@code false} after printing {@code cannot read …} on {@code err} when the input
     *         cannot be opened or read (or the sink fails to write), {@code true} otherwise
     */
    boolean runOffline(TurnClassifier classifier, PrintWriter err, OfflineRun.TurnSink sink) {
        try (BufferedReader in = open()) {
            new OfflineRun(classifier, corpus, err).run(in, name(), sink);
            return true;
        } catch (IOException e) {
            err.println("cannot read " + name() + ": " + why(e));
            return false;
        }
    }

    /** The input's name for messages. */
    String name() {
        return "-".equals(file) ? "standard input" : file;
    }

    /** A one-line reason an input could not be read, without a stack trace. */
    static String why(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
