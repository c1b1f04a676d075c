package io.recourse.runtime;

import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/** {@link EvidencePipelineScenario} on a Testcontainers {@code apache/kafka} broker; skipped where Docker is absent. */
@Testcontainers(disabledWithoutDocker = true)
public class EvidencePipelineContainerIT extends EvidencePipelineScenario {

    private static final ContainerTestBroker BROKER = new ContainerTestBroker();

    @Container
    public static final KafkaContainer KAFKA = BROKER.container();

    @Override
    public TestBroker broker() {
        return BROKER;
    }
}
