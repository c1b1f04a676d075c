package io.recourse.routing.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.avro.RouteAttempt;
import io.recourse.avro.RouteCommand;
import io.recourse.config.RecourseConfig;
import io.recourse.demo.RoutingDemoScenario;
import io.recourse.routing.JitterSource;
import io.recourse.routing.RoutingDispatchAck;
import io.recourse.routing.RunRequest;
import io.recourse.taxonomy.AckStatus;
import io.recourse.taxonomy.DispatchAckReason;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The dispatcher contract on the Office owner (README "Dispatching", DESIGN §7.3 "Dispatch"): a
 * RouteCommand carries what a dispatcher acts on without another lookup, its {@code expires_at}
 * is the instant the owner's own dispatch-timeout timer fires, and a {@code superseded} ack
 * declines the run without a resend.
 */
class RouteCommandContractTest {

    private static final Instant T0 = Instant.parse("2026-11-30T09:00:00Z");

    private static RoutingDriver driver(long dispatchTimeoutMs) {
        RecourseConfig cfg = RecourseConfig.of(Map.of(RecourseConfig.DISPATCH_TIMEOUT_MS, String.valueOf(dispatchTimeoutMs)));
        RoutingDriver d = new RoutingDriver(T0,
                new RoutingTopology.Options(RoutingTopology.settings(cfg), JitterSource.none(), UnaryOperator.identity()),
                Map.of(RecourseConfig.PUNCTUATION_INTERVAL_MS, "250")); // both timeouts are multiples: fired on time
        d.routeConfig(RoutingDemoScenario.config());
        d.request(new RunRequest("q1", "r1", RoutingDemoScenario.WORKSPACE, RoutingDemoScenario.PROFILE, "task-7", T0));
        return d;
    }

    @ParameterizedTest(name = "dispatch timeout {0} ms")
    @ValueSource(longs = {30_000, 7_250})
    void expiresAtIsTheInstantTheOwnerGivesUp(long timeoutMs) {
        try (RoutingDriver d = driver(timeoutMs)) {
            RouteCommand launch = d.commands.readValue();
            assertThat(launch.getAction()).isEqualTo("launch");
            assertThat(launch.getTaskId()).isEqualTo("task-7");
            assertThat(launch.getDynamicProfileId()).isEqualTo(RoutingDemoScenario.PROFILE);
            assertThat(launch.getExpiresAt()).isEqualTo(launch.getIssuedAt().plusMillis(timeoutMs));
            d.attempts.readValuesToList();

            d.advanceTo(launch.getExpiresAt().minusMillis(1));
            assertThat(d.commands.isEmpty()).as("no decline 1 ms before expires_at").isTrue();
            assertThat(d.attempts.isEmpty()).isTrue();

            d.advanceTo(launch.getExpiresAt());
            List<RouteAttempt> attempts = d.attempts.readValuesToList();
            assertThat(attempts).extracting(RouteAttempt::getOutcome).containsExactly("failed_other");
            assertThat(attempts.get(0).getFinishedAt()).as("given up exactly at expires_at").isEqualTo(launch.getExpiresAt());
            RouteCommand decline = d.commands.readValue();
            assertThat(decline.getAction()).isEqualTo("decline");
            assertThat(decline.getExpiresAt()).as("a decline has nothing to dispatch").isNull();
            assertThat(decline.getTaskId()).isEqualTo("task-7");
        }
    }

    @Test
    void aSupersededAckDeclinesTheRunAndNothingIsResent() {
        try (RoutingDriver d = driver(30_000)) {
            RouteCommand launch = d.commands.readValue();

            d.ack(new RoutingDispatchAck(launch.getCommandId(), AckStatus.FAILED, DispatchAckReason.SUPERSEDED,
                    launch.getRunId(), launch.getWorkspaceId(), null, null, d.now()));
            d.advanceTo(T0.plusSeconds(40));

            List<RouteCommand> after = d.commands.readValuesToList();
            assertThat(after).extracting(RouteCommand::getAction).containsExactly("decline");
            assertThat(after.get(0).getReason()).isEqualTo("superseded");
        }
    }
}
