package io.recourse.interactive;

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
        byte[] key = TimerKey.encode(new TimerEntry(InteractiveTimerKind.DISPATCH_TIMEOUT, T, "ws/sé"));

        ByteBuffer b = ByteBuffer.wrap(key);
        assertThat(b.getLong()).isEqualTo(T.toEpochMilli());
        assertThat(b.get()).isEqualTo((byte) 2);
        assertThat(Arrays.copyOfRange(key, 9, key.length)).isEqualTo("ws/sé".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    public void decodingAnEncodedKeyGivesTheEntryBack() {
        for (InteractiveTimerKind kind : InteractiveTimerKind.values()) {
            TimerEntry e = new TimerEntry(kind, T, "session/with/slashes");
            assertThat(TimerKey.decode(TimerKey.encode(e))).isEqualTo(e);
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
        List<byte[]> keys = new ArrayList<>(entries.stream().map(TimerKey::encode).toList());

        keys.sort(TimerKey.ORDER);
        entries.sort(TimerEntry.ORDER);

        assertThat(keys.stream().map(TimerKey::decode).toList()).isEqualTo(entries);
    }

    @Test
    public void theScanBoundsIncludeEveryEntryDueAtOrBeforeNowAndNothingLater() {
        byte[] from = TimerKey.scanFrom();
        byte[] to = TimerKey.scanTo(T);

        byte[] dueNow = TimerKey.encode(new TimerEntry(InteractiveTimerKind.SESSION_EXPIRY, T, "\uffff"));
        byte[] dueEarlier = TimerKey.encode(new TimerEntry(InteractiveTimerKind.RETRY, Instant.EPOCH, ""));
        byte[] dueLater = TimerKey.encode(new TimerEntry(InteractiveTimerKind.RETRY, T.plusMillis(1), ""));

        assertThat(TimerKey.ORDER.compare(from, dueEarlier)).isLessThanOrEqualTo(0);
        assertThat(TimerKey.ORDER.compare(dueNow, to)).isNegative();
        assertThat(TimerKey.ORDER.compare(dueEarlier, to)).isNegative();
        assertThat(TimerKey.ORDER.compare(dueLater, to)).isPositive();
    }

    @Test
    public void malformedKeysAreRejectedWithAReason() {
        assertThatThrownBy(() -> TimerKey.decode(new byte[8])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shorter");
        byte[] unknownKind = ByteBuffer.allocate(9).putLong(1).put((byte) 9).array();
        assertThatThrownBy(() -> TimerKey.decode(unknownKind)).isInstanceOf(IllegalArgumentException.class)
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
