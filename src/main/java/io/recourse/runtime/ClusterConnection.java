package io.recourse.runtime;

import io.recourse.config.RecourseConfig;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the operator commands ({@code recourse topics|produce|reset}) connect: the configured
 * {@code bootstrap.servers}; else the embedded broker of {@code state.dir} — the one a running
 * {@code recourse run} serves (found through its port file), or, when none runs, one this
 * connection starts on the same data and stops on {@link #close()}.
 */
public final class ClusterConnection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterConnection.class);

    private final String bootstrap;
    private final EmbeddedKafkaBroker started;

    private ClusterConnection(String bootstrap, EmbeddedKafkaBroker started) {
        this.bootstrap = bootstrap;
        this.started = started;
    }

    /** Connects as described in the class comment. */
    public static ClusterConnection open(RecourseConfig config) {
        if (!config.embedded()) {
            return new ClusterConnection(config.bootstrapServers().orElseThrow(), null);
        }
        OptionalInt running = EmbeddedKafkaBroker.runningPort(config.stateDir().resolve("broker"));
        if (running.isPresent()) {
            LOG.info("using the embedded broker of the running Recourse on 127.0.0.1:{}", running.getAsInt());
            return new ClusterConnection("127.0.0.1:" + running.getAsInt(), null);
        }
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.forConfig(config).start();
        return new ClusterConnection(broker.bootstrapServers(), broker);
    }

    /** The {@code bootstrap.servers} to use. */
    public String bootstrap() {
        return bootstrap;
    }

    /** A description for messages: the address, and "embedded broker" when it is one. */
    public String describe() {
        return bootstrap + (started != null ? " (embedded broker in " + "state.dir, started for this command)" : "");
    }

    /** Stops the embedded broker if this connection started it. */
    @Override
    public void close() {
        if (started != null) {
            started.close();
        }
    }
}
