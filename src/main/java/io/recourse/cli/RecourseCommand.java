package io.recourse.cli;

import io.recourse.config.ConfigurationException;
import io.recourse.demo.RoutingDemo;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code recourse} command line (the shaded jar's Main-Class). One class per subcommand;
 * add a new one to {@code subcommands} below. Exit codes: 0 success, 1 failure, 2 usage or
 * configuration error (the message names the offending key and value).
 */
@Command(name = "recourse",
        mixinStandardHelpOptions = true,
        versionProvider = RecourseCommand.Version.class,
        description = "Turns AI coding agents' failures into safe recovery decisions (a Kafka Streams application).",
        subcommands = {RunCommand.class, DescribeCommand.class, ClassifyCommand.class, CatalogueCommand.class,
                DemoCommand.class, RoutingDemo.class, BenchCommand.class, TailCommand.class,
                TopicsCommand.class, ConfigCommand.class, ProduceCommand.class, ResetCommand.class, CommandLine.HelpCommand.class})
public final class RecourseCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, for tests: {@code commandLine().execute(args)}. */
    public static CommandLine commandLine() {
        return new CommandLine(new RecourseCommand())
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    if (e instanceof ConfigurationException) {
                        cmd.getErr().println(cmd.getColorScheme().errorText(e.getMessage()));
                        return 2;
                    }
                    throw e;
                });
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand");
    }

    /** The version from the jar's Maven metadata, else "development build". */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Properties p = new Properties();
            try (InputStream in = RecourseCommand.class.getResourceAsStream("/META-INF/maven/io.recourse/recourse/pom.properties")) {
                if (in != null) {
                    p.load(in);
                }
            } catch (java.io.IOException e) {
                // fall through to the default
            }
            return new String[] {"recourse " + p.getProperty("version", "development build")};
        }
    }
}
