package io.recourse.interactive.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.config.RecourseConfig;
import io.recourse.interactive.InteractiveRecoveryPolicy;
import io.recourse.interactive.JitterSource;
import io.recourse.interactive.RecoveryReason;
import io.recourse.interactive.RecoveryState;
import io.recourse.interactive.RecoveryStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The dispatcher contract's deadline on the interactive owner (README "Dispatching", DESIGN §6.3):
 * a RetryCommand's {@code expires_at} is the instant the owner's own dispatch-timeout timer
 * fires, for any configured dispatch timeout, so a dispatcher that drops the command at
 * {@code expires_at} never sends a prompt the owner has handed to the user.
 */
public class RetryCommandExpiryTest {

    @TempDir
    public Path stateDir;
    private InteractiveTopologyTest t;

    private void start(long dispatchTimeoutMs) {
        t = new InteractiveTopologyTest();
        t.stateDir = stateDir;
        RecourseConfig cfg = RecourseConfig.of(Map.of(RecourseConfig.APPLICATION_ID, InteractiveTopologyTest.APP,
                RecourseConfig.DISPATCH_TIMEOUT_MS, String.valueOf(dispatchTimeoutMs), RecourseConfig.PUNCTUATION_INTERVAL_MS, "1"));
        t.start(cfg, new InteractiveRecoveryPolicy(InteractiveTopology.interactiveConfig(cfg), JitterSource.fixed(0.5)));
    }

    @AfterEach
    public void stop() {
        if (t != null) {
            t.stop();
        }
    }

    @ParameterizedTest(name = "dispatch timeout {0} ms")
    @ValueSource(longs = {30_000, 7_250})
    public void expires_at_is_the_instant_the_owner_gives_up(long timeoutMs) {
        start(timeoutMs);
        t.userTurnFails(InteractiveTopologyTest.S, 1);
        t.advance(Duration.ofSeconds(5));
        List<io.recourse.avro.RetryCommand> written = t.commands.readValuesToList();
        assertThat(written).hasSize(1);
        io.recourse.avro.RetryCommand command = written.get(0);
        Instant expiresAt = command.getExpiresAt();

        assertThat(expiresAt).isEqualTo(command.getIssuedAt().plusMillis(timeoutMs));
        assertThat(t.lastStored(InteractiveTopologyTest.S).getChain().getDispatchTimeoutAt())
                .as("the armed dispatch-timeout timer").isEqualTo(expiresAt);

        t.advanceTo(expiresAt.minusMillis(1));
        assertThat(t.lastState().status()).as("still waiting for the dispatcher 1 ms before expires_at")
                .isEqualTo(RecoveryStatus.DISPATCHING);

        t.advanceTo(expiresAt);
        RecoveryState state = t.lastState();
        assertThat(state.status()).isEqualTo(RecoveryStatus.MANUAL);
        assertThat(state.reason()).isEqualTo(RecoveryReason.DISPATCH_UNCONFIRMED);
        assertThat(state.updatedAt()).as("given up exactly at expires_at").isEqualTo(expiresAt);
    }

    @Test
    public void a_superseded_ack_hands_the_chain_to_the_user_and_nothing_is_resent() {
        start(30_000);
        t.userTurnFails(InteractiveTopologyTest.S, 1);
        t.advance(Duration.ofSeconds(5));
        var command = InteractiveAvro.fromAvro(t.commands.readValuesToList().get(0));

        t.ack(command, "failed", "superseded", null);
        t.advance(Duration.ofSeconds(60));

        RecoveryState state = t.lastState();
        assertThat(state.status()).isEqualTo(RecoveryStatus.MANUAL);
        assertThat(state.reason()).isEqualTo(RecoveryReason.SUPERSEDED);
        assertThat(t.commands.isEmpty()).as("never a second command for the attempt").isTrue();
    }
}
