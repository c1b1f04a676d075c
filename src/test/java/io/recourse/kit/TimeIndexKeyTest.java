package io.recourse.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

public class TimeIndexKeyTest {

    private static final Instant DUE = Instant.ofEpochMilli(0x0102030405060708L);

    @Test
    public void aKeyIsTheBigEndianInstantThenTheKindByteThenTheUtf8Id() {
        // given a due instant, a kind byte and a non-ASCII id
        // when encoded
        byte[] key = TimeIndexKey.encode(DUE, (byte) 2, "s/é");

        // then the bytes are pinned exactly (stores and changelogs already hold this layout)
        assertThat(key).containsExactly(
                0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
                0x02,
                's', '/', 0xC3, 0xA9);
    }

    @Test
    public void decodingAnEncodedKeyGivesBackItsParts() {
        byte[] key = TimeIndexKey.encode(DUE, (byte) 7, "session-1");

        TimeIndexKey decoded = TimeIndexKey.decode(key);

        assertThat(decoded).isEqualTo(new TimeIndexKey(DUE, (byte) 7, "session-1"));
        assertThat(decoded.encode()).isEqualTo(key);
    }

    @Test
    public void anEmptyIdRoundTrips() {
        assertThat(TimeIndexKey.decode(TimeIndexKey.encode(Instant.EPOCH, (byte) 1, "")))
                .isEqualTo(new TimeIndexKey(Instant.EPOCH, (byte) 1, ""));
    }

    @Test
    public void instantsAreTruncatedToMilliseconds() {
        byte[] key = TimeIndexKey.encode(DUE.plusNanos(999_999), (byte) 1, "x");

        assertThat(TimeIndexKey.decode(key).due()).isEqualTo(DUE);
    }

    @Test
    public void unsignedByteOrderIsInstantThenKindThenId() {
        byte[] early = TimeIndexKey.encode(Instant.ofEpochMilli(1), (byte) 0x7F, "\uffff");
        byte[] lateLowKind = TimeIndexKey.encode(Instant.ofEpochMilli(0x80), (byte) 1, "z");
        byte[] lateHighKind = TimeIndexKey.encode(Instant.ofEpochMilli(0x80), (byte) 0x80, "a");
        byte[] lateHighKindLaterId = TimeIndexKey.encode(Instant.ofEpochMilli(0x80), (byte) 0x80, "b");

        assertThat(TimeIndexKey.ORDER.compare(early, lateLowKind)).isNegative();
        assertThat(TimeIndexKey.ORDER.compare(lateLowKind, lateHighKind)).isNegative();
        assertThat(TimeIndexKey.ORDER.compare(lateHighKind, lateHighKindLaterId)).isNegative();
    }

    @Test
    public void theScanBoundsEncloseExactlyTheEntriesDueAtOrBeforeNow() {
        Instant now = Instant.ofEpochMilli(1_000);
        byte[] from = TimeIndexKey.lowerBound();
        byte[] to = TimeIndexKey.upperBound(now);

        byte[] atEpoch = TimeIndexKey.encode(Instant.EPOCH, (byte) 0, "");
        byte[] dueNow = TimeIndexKey.encode(now, (byte) 0xFF, "\uffff");
        byte[] dueLater = TimeIndexKey.encode(now.plusMillis(1), (byte) 0, "");

        assertThat(TimeIndexKey.ORDER.compare(from, atEpoch)).isNegative();
        assertThat(TimeIndexKey.ORDER.compare(dueNow, to)).isNegative();
        assertThat(TimeIndexKey.ORDER.compare(dueLater, to)).isPositive();
        assertThat(to).containsExactly(0, 0, 0, 0, 0, 0, 0x03, 0xE9);
    }

    @Test
    public void aKeyShorterThanNineBytesIsRejected() {
        assertThatThrownBy(() -> TimeIndexKey.decode(new byte[8]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shorter");
    }
}
