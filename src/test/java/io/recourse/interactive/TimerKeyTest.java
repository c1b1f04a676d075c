package io.recourse.interactive;

import io.recourse.kit.TimeIndexKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

public class TimerKeyTest {

    private static final Instant T = Instant.parse("2026-06-01T12:00:05.123Z");

    @Test
    public void aKeyIsTheBigEndianEpochMillisThenTheKindByteThenTheUtf8SessionId() {
        byte[] key = new TimerEntry(InteractiveTimerKind.DISPATCH_TIMEOUT, T, "ws/sé").key();

        ByteBuffer b = ByteBuffer.wrap(key);
        assertThat(b.getLong()).isEqualTo(T.toEpochMilli());
        assertThat(b.get()).isEqualTo((byte) 2);
        assertThat(Arrays.copyOfRange(key, 9, key.length)).isEqualTo("ws/sé".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    public void decodingAnEncodedKeyGivesTheEntryBack() {
        for (InteractiveTimerKind kind : InteractiveTimerKind.values()) {
            TimerEntry e = new TimerEntry(kind, T, "session/with/slashes");
            assertThat(TimerEntry.fromKey(e.key())).isEqualTo(e);
        }
    }

    @Test
    public void encodedKeysSortByInstantThenKindThenSession() {
        List<TimerEntry> entries = new ArrayList<>(List.of(
                new TimerEntry(InteractiveTimerKind.SESSION_EXPIRY, T, "a"),
                new TimerEntry(InteractiveTimerKind.RETRY, T.plusMillis(1), "a"),
                new TimerEntry(InteractiveTimerKind.RETRY, T, "b"),
                new TimerEntry(InteractiveTimerKind.RETRY, T, "a"),
                new TimerEntry(InteractiveTimerKind.DISPATCH_TIMEOUT, T, "a"),
                // 127 ms and 128 ms differ in a byte that is negative when read as a signed byte
                new TimerEntry(InteractiveTimerKind.RETRY, Instant.ofEpochMilli(128), "a"),
                new TimerEntry(InteractiveTimerKind.RETRY, Instant.ofEpochMilli(127), "a")));
        List<byte[]> keys = new ArrayList<>(entries.stream().map(TimerEntry::key).toList());

        keys.sort(TimeIndexKey.ORDER);
        entries.sort(TimerEntry.ORDER);

        assertThat(keys.stream().map(TimerEntry::fromKey).toList()).isEqualTo(entries);
    }

    @Test
    public void theScanBoundsIncludeEveryEntryDueAtOrBeforeNowAndNothingLater() {
        byte[] from = TimeIndexKey.lowerBound();
        byte[] to = TimeIndexKey.upperBound(T);

        byte[] dueNow = new TimerEntry(InteractiveTimerKind.SESSION_EXPIRY, T, "\uffff").key();
        byte[] dueEarlier = new TimerEntry(InteractiveTimerKind.RETRY, Instant.EPOCH, "").key();
        byte[] dueLater = new TimerEntry(InteractiveTimerKind.RETRY, T.plusMillis(1), "").key();

        assertThat(TimeIndexKey.ORDER.compare(from, dueEarlier)).isLessThanOrEqualTo(0);
        assertThat(TimeIndexKey.ORDER.compare(dueNow, to)).isNegative();
        assertThat(TimeIndexKey.ORDER.compare(dueEarlier, to)).isNegative();
        assertThat(TimeIndexKey.ORDER.compare(dueLater, to)).isPositive();
    }

    @Test
    public void malformedKeysAreRejectedWithAReason() {
        assertThatThrownBy(() -> TimerEntry.fromKey(new byte[8])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shorter");
        byte[] unknownKind = ByteBuffer.allocate(9).putLong(1).put((byte) 9).array();
        assertThatThrownBy(() -> TimerEntry.fromKey(unknownKind)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kind");
        assertThatThrownBy(() -> new TimerEntry(InteractiveTimerKind.RETRY, Instant.ofEpochMilli(-1), "s"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("epoch");
    }

    @Test
    public void entriesKeepMillisecondPrecision() {
        TimerEntry e = new TimerEntry(InteractiveTimerKind.RETRY, T.plusNanos(999_999), "s");
        assertThat(e.dueAt()).isEqualTo(T);
    }
}
