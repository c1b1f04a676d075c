package io.recourse.interactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.recourse.taxonomy.AckStatus;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The small pure pieces around the schedule: jitter source, configuration, labels, wire names. */
public class ScheduleSupportTest {

    @Test
    public void theHashedJitterSourceIsDeterministicAndDiffersPerAttempt() {
        JitterSource a = JitterSource.hashed();
        JitterSource b = JitterSource.hashed();

        assertThat(a.unit("s", 1, 1)).isEqualTo(b.unit("s", 1, 1));
        assertThat(a.unit("s", 1, 1)).isNotEqualTo(a.unit("s", 1, 2));
        assertThat(a.unit("s", 1, 1)).isNotEqualTo(a.unit("s", 2, 1));
        assertThat(a.unit("s", 1, 1)).isBetween(0.0, 1.0);
    }

    @Test
    public void aJitterSourceOutsideTheUnitIntervalIsRejected() {
        assertThatThrownBy(() -> RetrySchedule.jitteredDelay(InteractiveConfig.defaults(), (s, c, a) -> 1.0, "s", 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[0, 1)");
    }

    @Test
    public void theDefaultConfigurationIsTheDesignsSchedule() {
        InteractiveConfig c = InteractiveConfig.defaults();

        assertThat(c.maxAttempts()).isEqualTo(5);
        assertThat(c.nominalDelays()).extracting(Duration::toSeconds).containsExactly(5L, 10L, 20L, 40L, 60L);
        assertThat(c.jitterRatio()).isEqualTo(0.2);
        assertThat(c.dispatchTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.stalenessBound()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.sessionTtl()).isEqualTo(Duration.ofDays(7));
    }

    @Test
    public void aTimeScaledConfigurationDividesEveryDurationButKeepsTheJitterRatio() {
        InteractiveConfig c = InteractiveConfig.defaults().timeScaled(10);

        assertThat(c.nominalDelays()).extracting(Duration::toMillis).containsExactly(500L, 1000L, 2000L, 4000L, 6000L);
        assertThat(c.rateLimitHintMax()).isEqualTo(Duration.ofSeconds(6));
        assertThat(c.stalenessBound()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.dispatchTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(c.sessionTtl()).isEqualTo(Duration.ofDays(7).dividedBy(10));
        assertThat(c.jitterRatio()).isEqualTo(0.2);
        assertThatThrownBy(() -> InteractiveConfig.defaults().timeScaled(0.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("time scale");
    }

    @Test
    public void anInvalidConfigurationNamesTheOffendingField() {
        assertThatThrownBy(() -> new InteractiveConfig(List.of(Duration.ofSeconds(5)), 0.2, Duration.ZERO,
                Duration.ofMinutes(5), Duration.ofSeconds(30), Duration.ofDays(7)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rateLimitHintMax");
        assertThatThrownBy(() -> new InteractiveConfig(List.of(Duration.ofSeconds(5)), 1.0, Duration.ofSeconds(60),
                Duration.ofMinutes(5), Duration.ofSeconds(30), Duration.ofDays(7)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jitterRatio");
    }

    @Test
    public void labelsKeepIdentifiersAndLoseSecretsAndMarkup() {
        assertThat(Labels.sanitize("openai/gpt-5.1-codex")).isEqualTo("openai/gpt-5.1-codex");
        assertThat(Labels.sanitize("Bearer sk-ant-api03-abcdefghijklmnop")).doesNotContain("sk-ant").contains("redacted");
        assertThat(Labels.sanitize("  ")).isNull();
        assertThat(Labels.sanitize("abc def ".repeat(15))).hasSize(Labels.MAX_LENGTH).startsWith("abc_def_");
        assertThat(Labels.sanitize("model <b>name</b>")).isEqualTo("model_b_name_/b_");
    }

    @Test
    public void statusesAndDispositionsUseTheDesignsWireNames() {
        assertThat(java.util.Arrays.stream(RecoveryStatus.values()).map(RecoveryStatus::wire)).containsExactly(
                "none", "scheduled", "dispatching", "awaiting_outcome", "exhausted", "cancelled", "disarmed", "manual");
        assertThat(java.util.Arrays.stream(Disposition.values()).map(Disposition::wire))
                .containsExactly("auto_retry", "manual", "none");
        assertThat(ControlAction.fromWire("retry_now")).isEqualTo(ControlAction.RETRY_NOW);
        assertThat(AckStatus.fromWire("dispatched")).isEqualTo(AckStatus.DISPATCHED);
    }
}
