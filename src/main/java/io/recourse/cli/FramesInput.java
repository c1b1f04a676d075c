package io.recourse.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
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
