package io.recourse.routing.streams;

import io.recourse.SchemaConformanceTest;
import io.recourse.SchemaConformanceTest.Input;
import io.recourse.routing.RoutingDispatchAck;
import io.recourse.routing.RunControl;
import io.recourse.routing.RunControlAction;
import io.recourse.routing.RunFinished;
import io.recourse.routing.RunRequest;
import io.recourse.taxonomy.AckStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The Office inputs the routing tests produce ({@link RoutingJsonFixtures}) are valid against their JSON Schemas and parse. */
public class RoutingJsonFixturesSchemaTest {

    private static final Instant AT = Instant.parse("2026-06-01T12:00:00.250Z");

    @Test
    public void run_requests_and_run_finished_of_the_fixtures_are_valid() {
        check(Input.OFFICE_RUN_REQUEST, "run request", RoutingJsonFixtures.json(new RunRequest("req-1", "run-1", "ws", "dyn", "task-1", AT)));
        check(Input.OFFICE_RUN_REQUEST, "run request without task", RoutingJsonFixtures.json(new RunRequest("req-1", "run-1", "ws", "dyn", null, AT)));
        check(Input.OFFICE_RUN_REQUEST, "run finished", RoutingJsonFixtures.json(new RunFinished("run-1", "ws", AT)));
    }

    @Test
    public void run_controls_of_the_fixtures_are_valid() {
        for (RunControlAction action : RunControlAction.values()) {
            check(Input.OFFICE_RUN_CONTROL, action.wire(), RoutingJsonFixtures.json(new RunControl("run-1", "ws", action, 2, AT)));
        }
    }

    @Test
    public void dispatch_acks_of_the_fixtures_are_valid() {
        check(Input.OFFICE_DISPATCH_ACK, "dispatched",
                RoutingJsonFixtures.json(new RoutingDispatchAck("cmd-1", AckStatus.DISPATCHED, null, "run-1", "ws", "run-1-s1", 1, AT)));
        check(Input.OFFICE_DISPATCH_ACK, "failed without session",
                RoutingJsonFixtures.json(new RoutingDispatchAck("cmd-1", AckStatus.FAILED, null, "run-1", "ws", null, null, AT)));
    }

    private static void check(Input in, String what, byte[] json) {
        SchemaConformanceTest.assertValidAndAccepted(in, what, new String(json, StandardCharsets.UTF_8));
    }
}
