package io.recourse.runtime;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link RedactionScenario} on the in-process KRaft broker. */
public class RedactionEmbeddedIT extends RedactionScenario {

    private static EmbeddedTestBroker broker;

    @BeforeAll
    public static void startBroker() {
        broker = EmbeddedTestBroker.start();
    }

    @AfterAll
    public static void stopBroker() {
        broker.close();
    }

    @Override
    public TestBroker broker() {
        return broker;
    }
}
