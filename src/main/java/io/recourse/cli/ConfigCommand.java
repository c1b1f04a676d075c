package io.recourse.cli;

import io.recourse.config.RecourseConfig;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code recourse config print}: the effective configuration, secrets masked, with each value's source. */
@Command(name = "config", mixinStandardHelpOptions = true, description = "Show the configuration.",
        subcommands = ConfigCommand.Print.class)
public final class ConfigCommand {

    /** {@code recourse config print}. */
    @Command(name = "print", mixinStandardHelpOptions = true,
            description = "Print every effective setting (secrets masked) and where it came from: default, file, env, system property, flag.")
    static final class Print implements Callable<Integer> {
        @Mixin
        ConfigOption config;
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            RecourseConfig c = config.load();
            PrintWriter out = spec.commandLine().getOut();
            int width = c.values().keySet().stream().mapToInt(String::length).max().orElse(10);
            c.values().keySet().forEach(k ->
                    out.printf("%-" + width + "s = %-40s (%s)%n", k, c.masked(k), c.source(k).label()));
            if (!c.values().containsKey(RecourseConfig.BOOTSTRAP_SERVERS)) {
                out.printf("%-" + width + "s   (unset: embedded broker)%n", RecourseConfig.BOOTSTRAP_SERVERS);
            }
            out.flush();
            return 0;
        }
    }
}
