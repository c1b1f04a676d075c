package io.recourse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** Runs {@code recourse …} in-process through picocli's {@code execute}, capturing out and err. */
public final class Cli {

    public static final ObjectMapper JSON = new ObjectMapper();

    /** The result of one run. */
    public record Run(int exitCode, String out, String err) {

        /** Standard output as one JSON object per line. */
        List<JsonNode> objects() {
            List<JsonNode> out = new ArrayList<>();
            for (String line : this.out.split("\n")) {
                if (!line.isBlank()) {
                    try {
                        out.add(JSON.readTree(line));
                    } catch (IOException e) {
                        throw new UncheckedIOException("not a JSON line: " + line, e);
                    }
                }
            }
            return out;
        }
    }

    private Cli() {
    }

    public static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = RecourseCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /** Runs with {@code stdin} as standard input (restored afterwards). */
    public static Run withStdin(String stdin, String... args) {
        InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        try {
            return run(args);
        } finally {
            System.setIn(saved);
        }
    }

    /** A classpath resource as text. */
    public static String resource(String name) {
        try (InputStream in = Cli.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every non-blank line of a classpath JSONL resource. */
    public static List<JsonNode> jsonLines(String name) {
        List<JsonNode> out = new ArrayList<>();
        for (String line : resource(name).split("\n")) {
            if (!line.isBlank()) {
                try {
                    out.add(JSON.readTree(line));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return out;
    }
}
