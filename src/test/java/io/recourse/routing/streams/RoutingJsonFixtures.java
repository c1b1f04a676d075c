package io.recourse.routing.streams;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.recourse.routing.RoutingDispatchAck;
import io.recourse.routing.RunControl;
import io.recourse.routing.RunFinished;
import io.recourse.routing.RunRequest;
import java.nio.charset.StandardCharsets;

/** The JSON documents producers write on the Office input topics (DESIGN §7.1, §7.3), built with Jackson. */
public final class RoutingJsonFixtures {

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private RoutingJsonFixtures() {
    }

    public static byte[] json(RunRequest r) {
        ObjectNode n = MAPPER.createObjectNode().put("type", "run_request").put("request_id", r.requestId())
                .put("run_id", r.runId()).put("workspace_id", r.workspaceId())
                .put("dynamic_profile_id", r.dynamicProfileId()).put("task_id", r.taskId())
                .put("occurred_at", r.occurredAt().toString());
        return bytes(n);
    }

    public static byte[] json(RunFinished f) {
        ObjectNode n = MAPPER.createObjectNode().put("type", "run_finished").put("run_id", f.runId())
                .put("workspace_id", f.workspaceId()).put("occurred_at", f.occurredAt().toString());
        return bytes(n);
    }

    public static byte[] json(RunControl c) {
        ObjectNode n = MAPPER.createObjectNode().put("run_id", c.runId()).put("workspace_id", c.workspaceId())
                .put("action", c.action().wire()).put("expected_attempt", c.expectedAttempt())
                .put("occurred_at", c.occurredAt().toString());
        return bytes(n);
    }

    public static byte[] json(RoutingDispatchAck a) {
        ObjectNode n = MAPPER.createObjectNode().put("command_id", a.commandId()).put("status", a.status().wire())
                .put("reason", a.reason() == null ? null : a.reason().wire()).put("run_id", a.runId()).put("workspace_id", a.workspaceId())
                .put("session_id", a.sessionId()).put("occurred_at", a.occurredAt().toString());
        if (a.promptGeneration() != null) {
            n.put("prompt_generation", a.promptGeneration());
        }
        return bytes(n);
    }

    private static byte[] bytes(ObjectNode n) {
        return n.toString().getBytes(StandardCharsets.UTF_8);
    }
}
