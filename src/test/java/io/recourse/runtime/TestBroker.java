package io.recourse.runtime;

/**
 * A Kafka broker an {@code *IT} runs against: the in-process {@link EmbeddedTestBroker}, or a
 * Testcontainers {@code apache/kafka} broker ({@link ContainerTestBroker}) where Docker exists.
 * Write scenarios against this, so the same IT runs on both.
 */
public interface TestBroker {

    /** {@code host:port} for {@code bootstrap.servers}. */
    public String bootstrapServers();
}
