package io.recourse.runtime;

import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.kafka.KafkaContainer;

/** {@link IngressDeadLetterScenario} on a Testcontainers {@code apache/kafka} broker; skipped where Docker is absent. */
@Testcontainers(disabledWithoutDocker = true)
public class IngressDeadLetterContainerIT extends IngressDeadLetterScenario {

    private static final ContainerTestBroker BROKER = new ContainerTestBroker();

    @Container
    public static final KafkaContainer KAFKA = BROKER.container();

    @Override
    public TestBroker broker() {
        return BROKER;
    }
}
