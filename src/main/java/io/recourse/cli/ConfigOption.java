package io.recourse.cli;

import io.recourse.config.RecourseConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The {@code --config FILE} option every subcommand mixes in: a Java properties file of Recourse
 * and Kafka settings, overridden by {@code RECOURSE_*} environment variables (see
 * {@link RecourseConfig}).
 */
public final class ConfigOption {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Properties file (Recourse keys, Kafka client keys); RECOURSE_* environment variables override it.")
    Path file;

    /**
     * The configuration from the file (when given) and the process environment.
     *
     * @throws io.recourse.config.ConfigurationException naming the offending key and value
     */
    public RecourseConfig load() {
        return RecourseConfig.load(file, System.getenv());
    }
}
