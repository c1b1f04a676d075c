package io.recourse.routing;

import static io.recourse.routing.RoutingFixtures.T0;
import static io.recourse.routing.RoutingFixtures.WS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.strings;

import io.recourse.taxonomy.Code;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The provider health ladder and the same-route delay arithmetic (DESIGN §7.2–7.3). */
public class ProviderHealthLadderTest {

    private static final ScopeKey KEY = ScopeKey.provider(WS, "openai");
    /** Fixed so a failure reproduces on every machine. */
    private static final long SEED = 0x4C41_4444_4552L;

    @Test
    public void repeatedDegradationWalksTheLadder2_5_10_20_60MinutesAndStaysOnTheLastStep() {
        ProviderHealthLadder ladder = new ProviderHealthLadder(RoutingSettings.DEFAULTS, JitterSource.none());
        ProviderHealth h = null;
        List<Duration> steps = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            h = ladder.degrade(KEY, h, Code.PROVIDER_UNAVAILABLE, null, T0);
            steps.add(Duration.between(T0, h.retryAt()));
        }
        assertThat(steps).containsExactly(Duration.ofMinutes(2), Duration.ofMinutes(5), Duration.ofMinutes(10),
                Duration.ofMinutes(20), Duration.ofMinutes(60), Duration.ofMinutes(60));
        assertThat(h.backoffStep()).isEqualTo(5);
    }

    @Test
    public void aValidatedResetReplacesTheLadderWithoutAdvancingTheStep() {
        ProviderHealthLadder ladder = new ProviderHealthLadder(RoutingSettings.DEFAULTS, JitterSource.none());
        ProviderHealth first = ladder.degrade(KEY, null, Code.QUOTA_LIMITED, null, T0);
        ProviderHealth reset = ladder.degrade(KEY, first, Code.QUOTA_LIMITED, T0.plus(Duration.ofHours(4)), T0);
        assertThat(reset.retryAt()).isEqualTo(T0.plus(Duration.ofHours(4)));
        assertThat(reset.backoffStep()).isEqualTo(first.backoffStep());
    }

    @Test
    public void aHintAlreadyPastFallsBackToTheLadderSoRetryAtIsNeverInThePast() {
        ProviderHealthLadder ladder = new ProviderHealthLadder(RoutingSettings.DEFAULTS, JitterSource.none());
        ProviderHealth h = ladder.degrade(KEY, null, Code.QUOTA_LIMITED, T0.minusSeconds(1), T0);
        assertThat(h.retryAt()).isEqualTo(T0.plus(Duration.ofMinutes(2)));
    }

    @Test
    public void userActionRequiredHasNoTimerAndACompletedTurnMakesTheScopeHealthy() {
        ProviderHealthLadder ladder = new ProviderHealthLadder(RoutingSettings.DEFAULTS, JitterSource.none());
        ProviderHealth u = ladder.userActionRequired(KEY, null, Code.AUTH_REQUIRED, T0);
        assertThat(u.retryAt()).isNull();
        assertThat(u.blocks(T0.plus(Duration.ofDays(30)))).isTrue();
        ProviderHealth ok = ladder.healthy(KEY, u, T0);
        assertThat(ok.state()).isEqualTo(HealthState.HEALTHY);
        assertThat(ok.blocks(T0)).isFalse();
    }

    @Test
    public void theHealthKeyPercentEncodesEachPart() {
        assertThat(ScopeKey.model("ws 1", "openrouter", "anthropic/claude-sonnet-4").healthKey())
                .isEqualTo("ws%201/openrouter/model/anthropic%2Fclaude-sonnet-4");
    }

    @Test
    public void ladderJitterStaysWithin25PercentAndIsDeterministic() {
        qt().withFixedSeed(SEED).withExamples(300)
                .forAll(integers().between(1, 5), strings().betweenCodePoints(0x20, 0xD7FF).ofLengthBetween(0, 30))
                .checkAssert(ProviderHealthLadderTest::ladderJitterBounded);
    }

    private static void ladderJitterBounded(int step, String workspace) {
        ProviderHealthLadder ladder = new ProviderHealthLadder(RoutingSettings.DEFAULTS, JitterSource.hashing());
        ScopeKey key = ScopeKey.provider(workspace, "openai");
        Duration base = RoutingSettings.DEFAULTS.ladder().get(step - 1);
        Duration d = ladder.ladderDelay(key, step);
        assertThat(d.toMillis()).isBetween(Math.round(base.toMillis() * 0.75), Math.round(base.toMillis() * 1.25));
        assertThat(ladder.ladderDelay(key, step)).isEqualTo(d);
    }

    @Test
    public void sameRouteDelayIsTheJitteredNominalBoundedBelowByRetryAfter() {
        qt().withFixedSeed(SEED).withExamples(300)
                .forAll(integers().between(1, 3), integers().between(1, 3600), integers().between(0, 120),
                        strings().betweenCodePoints(0x20, 0xD7FF).ofLengthBetween(0, 30))
                .checkAssert(ProviderHealthLadderTest::delayBounded);
    }

    private static void delayBounded(int ordinal, int initial, int retryAfterSeconds, String runId) {
        RoutingPolicy p = new RoutingPolicy(RoutingSettings.DEFAULTS, JitterSource.hashing());
        RetryPolicy r = RetryPolicy.of(3, initial);
        Duration nominal = Duration.ofSeconds((long) initial << (ordinal - 1));
        Duration plain = p.delay(r, runId, 1, ordinal, null, T0);
        assertThat(plain.toMillis()).isBetween(Math.round(nominal.toMillis() * 0.8), Math.round(nominal.toMillis() * 1.2));
        assertThat(p.delay(r, runId, 1, ordinal, null, T0)).isEqualTo(plain);
        Duration hinted = p.delay(r, runId, 1, ordinal, T0.plusSeconds(retryAfterSeconds), T0);
        assertThat(hinted).isEqualTo(plain.compareTo(Duration.ofSeconds(retryAfterSeconds)) >= 0
                ? plain : Duration.ofSeconds(retryAfterSeconds));
        assertThat(hinted).isLessThanOrEqualTo(Duration.ofHours(24));
    }
}
