package io.recourse.kit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.junit.jupiter.api.Test;

/** The one jitter source gives, per range, exactly the values the owners' own sources gave. */
class JitterTest {

    private static long top53(String key) throws Exception {
        byte[] h = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        return ByteBuffer.wrap(h).getLong() >>> 11;
    }

    @Test
    void signed_range_is_the_routing_formula() throws Exception {
        for (String key : new String[] {"retry|r1|1|1", "ladder|ws/provider/p1|3", "", "ü|∞"}) {
            double expected = (top53(key) / (double) (1L << 53)) * 2.0 - 1.0;
            assertThat(Jitter.hashed(key, Jitter.Range.SIGNED)).isEqualTo(expected).isBetween(-1.0, 1.0);
        }
    }

    @Test
    void unit_range_is_the_interactive_formula() throws Exception {
        for (String key : new String[] {"recourse.kanban.jitter/s1/3/1", "recourse.kanban.jitter/s1/3/2", ""}) {
            double expected = top53(key) * 0x1.0p-53;
            double u = Jitter.hashed(key, Jitter.Range.UNIT);
            assertThat(u).isEqualTo(expected).isGreaterThanOrEqualTo(0.0).isLessThan(1.0);
        }
    }

    @Test
    void the_ranges_are_one_value_mapped_twice() {
        String key = "retry|r9|2|1";
        assertThat(Jitter.hashed(key, Jitter.Range.SIGNED)).isEqualTo(Jitter.hashed(key, Jitter.Range.UNIT) * 2.0 - 1.0);
    }
}
