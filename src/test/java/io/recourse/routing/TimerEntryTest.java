package io.recourse.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.generators.Generate;

/** The time-index key (DESIGN §2, §8): 8-byte big-endian instant + kind byte + id. */
public class TimerEntryTest {

    @Test
    public void theKeyIsTheBigEndianInstantThenTheKindByteThenTheId() {
        TimerEntry e = new TimerEntry(RoutingTimerKind.PARKED_WAKE, Instant.ofEpochMilli(0x0102030405060708L), "r1");
        assertThat(e.key()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 4, 'r', '1');
        assertThat(TimerEntry.fromKey(e.key())).isEqualTo(e);
    }

    @Test
    public void unsignedByteOrderOfKeysIsDueOrder() {
        qt().withFixedSeed(0x54494D45L).withExamples(500)
                .forAll(longs().between(0, 4_102_444_800_000L), longs().between(0, 4_102_444_800_000L),
                        Generate.enumValues(RoutingTimerKind.class), Generate.enumValues(RoutingTimerKind.class))
                .checkAssert(TimerEntryTest::byteOrderIsDueOrder);
    }

    private static void byteOrderIsDueOrder(long a, long b, RoutingTimerKind ka, RoutingTimerKind kb) {
        TimerEntry x = new TimerEntry(ka, Instant.ofEpochMilli(a), "run-a");
        TimerEntry y = new TimerEntry(kb, Instant.ofEpochMilli(b), "run-b");
        int bytes = Integer.signum(Arrays.compareUnsigned(x.key(), y.key()));
        int order = Integer.signum(TimerEntry.ORDER.compare(x, y));
        assertThat(bytes).isEqualTo(order);
    }

    @Test
    public void theUpperBoundIncludesEverythingDueAtTheInstantAndNothingLater() {
        Instant now = Instant.parse("2026-11-30T08:00:00Z");
        byte[] bound = TimerEntry.upperBound(now);
        List<TimerEntry> due = List.of(new TimerEntry(RoutingTimerKind.DISPATCH_TIMEOUT, now, "zzz"),
                new TimerEntry(RoutingTimerKind.ROUTE_COMMAND_DUE, now.minusMillis(1), "a"));
        TimerEntry later = new TimerEntry(RoutingTimerKind.ROUTE_COMMAND_DUE, now.plusMillis(1), "a");
        assertThat(due).allMatch(e -> Arrays.compareUnsigned(e.key(), bound) < 0);
        assertThat(Arrays.compareUnsigned(later.key(), bound)).isPositive();
    }
}
