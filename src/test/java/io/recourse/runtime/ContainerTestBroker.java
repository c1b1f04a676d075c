package io.recourse.runtime;

import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * {@link TestBroker} on a Testcontainers {@code apache/kafka} KRaft broker (single node; the
 * container sets replication factor 1 and min ISR 1 for the transaction state log, as
 * exactly-once needs). Only usable where Docker runs: annotate the IT
 * {@code @Testcontainers(disabledWithoutDocker = true)} and declare {@link #container()} as its
 * {@code @Container}.
 */
public final class ContainerTestBroker implements TestBroker {

    /** The broker image; the same major line as the Kafka clients in pom.xml. */
    public static final DockerImageName IMAGE = DockerImageName.parse("apache/kafka:4.1.1");

    private final KafkaContainer container;

    public ContainerTestBroker() {
        this.container = new KafkaContainer(IMAGE);
    }

    /** The container, for the test class's {@code @Container} field. */
    public KafkaContainer container() {
        return container;
    }

    @Override
    public String bootstrapServers() {
        return container.getBootstrapServers();
    }
}
