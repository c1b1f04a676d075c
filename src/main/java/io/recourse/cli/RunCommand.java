package io.recourse.cli;

import io.recourse.http.RecourseHttp;
import io.recourse.runtime.RecourseRunner;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code recourse run}: the main job on the configured cluster, or on the embedded broker when no
 * {@code bootstrap.servers} is configured, with the instance's HTTP server ({@link RecourseHttp}); stops
 * cleanly on SIGTERM/SIGINT.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run Recourse on the configured cluster (or an embedded broker) until stopped.")
public final class RunCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Override
    public Integer call() throws Exception {
        return new RecourseRunner(config.load()).withEndpoint(RecourseHttp::start).runUntilStopped() ? 0 : 1;
    }
}
