package io.recourse.cli;

import io.recourse.evidence.streams.RecourseMeters;
import io.recourse.topology.RecourseTopology;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code recourse describe}: prints {@code Topology.describe()} of the configured topology; needs no broker. */
@Command(name = "describe", mixinStandardHelpOptions = true,
        description = "Print the topology description (sources, processors, stores, sinks, internal topics).")
public final class DescribeCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(RecourseTopology.build(config.load(), RecourseTopology.Options.with(RecourseMeters.global())).describe());
        spec.commandLine().getOut().flush();
        return 0;
    }
}
