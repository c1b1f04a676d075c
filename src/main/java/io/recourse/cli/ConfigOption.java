package io.recourse.cli;

import io.recourse.config.RecourseConfig;
import io.recourse.runtime.KafkaKeys;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The {@code --config FILE} and {@code --set KEY=VALUE} options every subcommand mixes in: a Java
 * properties file of Recourse and Kafka settings, overridden by {@code RECOURSE_*} environment
 * variables, then by {@code -Drecourse.*} / {@code -Dkafka.*} system properties, then by
 * {@code --set} (see {@link RecourseConfig}, {@link io.recourse.config.ConfigSources}). An unknown
 * {@code recourse.*} key or {@code RECOURSE_*} variable fails with the closest known one.
 */
public final class ConfigOption {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Properties file (Recourse keys, Kafka client keys); RECOURSE_* environment variables override it.")
    Path file;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "A setting, overriding the file, the environment and system properties (repeatable).")
    Map<String, String> flags = new LinkedHashMap<>();

    /**
     * The configuration from the file (when given), the process environment, the system properties
     * and the {@code --set} flags. Unknown keys accepted under {@code recourse.config.allow-unknown}
     * are reported on standard error.
     *
     * @throws io.recourse.config.ConfigurationException naming the offending key and value
     */
    public RecourseConfig load() {
        Map<String, String> system = new LinkedHashMap<>();
        System.getProperties().stringPropertyNames().forEach(k -> system.put(k, System.getProperty(k)));
        RecourseConfig config = RecourseConfig.load(file, System.getenv(), system, flags, KafkaKeys::known);
        config.warnings().forEach(w -> System.err.println("warning: " + w));
        return config;
    }
}
