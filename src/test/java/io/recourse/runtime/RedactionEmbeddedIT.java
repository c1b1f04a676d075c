package io.recourse.runtime;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link RedactionScenario} on the in-process KRaft broker. */
class RedactionEmbeddedIT extends RedactionScenario {

    private static EmbeddedTestBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = EmbeddedTestBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Override
    TestBroker broker() {
        return broker;
    }
}
