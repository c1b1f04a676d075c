package io.recourse.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.recourse.routing.HealthState;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The provider-health gauge has a series for every state the routing owner can write (DESIGN §7.3). */
class HealthStatesTest {

    @Test
    void theGaugeCountsEveryHealthState() {
        assertThat(RecourseHttp.HEALTH_STATES)
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(HealthState.values()).map(HealthState::wire).toList());
    }
}
