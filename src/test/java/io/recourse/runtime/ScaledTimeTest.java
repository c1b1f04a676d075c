package io.recourse.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The demo's {@code --time-scale} clock (DESIGN §8): N× faster from its origin, record times mapped the same way. */
public class ScaledTimeTest {

    private static final Instant ORIGIN = Instant.parse("2026-11-30T09:00:00Z");

    @Test
    public void a_wall_clock_instant_maps_to_origin_plus_scaled_elapsed_time() {
        ScaledTime time = new ScaledTime(ORIGIN, 10);

        assertThat(time.scaled(ORIGIN.plusSeconds(3))).isEqualTo(ORIGIN.plusSeconds(30));
        assertThat(time.scaled(ORIGIN.plusMillis(1_234))).isEqualTo(ORIGIN.plusMillis(12_340));
    }

    @Test
    public void the_origin_maps_onto_itself_and_earlier_instants_move_back_scaled() {
        ScaledTime time = new ScaledTime(ORIGIN, 4);

        assertThat(time.scaled(ORIGIN)).isEqualTo(ORIGIN);
        assertThat(time.scaled(ORIGIN.minusSeconds(1))).isEqualTo(ORIGIN.minusSeconds(4));
    }

    @Test
    public void scale_one_is_the_wall_clock() {
        ScaledTime time = new ScaledTime(ORIGIN, 1);
        Instant instant = Instant.parse("2026-12-24T18:30:00.123Z");

        assertThat(time.scaled(instant)).isEqualTo(instant);
    }

    @Test
    public void milliseconds_are_the_current_wall_time_mapped_through_the_same_scaling() {
        Instant origin = Instant.ofEpochMilli(System.currentTimeMillis() - 60_000);
        ScaledTime time = new ScaledTime(origin, 10);

        long before = System.currentTimeMillis();
        long scaled = time.milliseconds();
        long after = System.currentTimeMillis();

        assertThat(scaled).isBetween(time.scaled(Instant.ofEpochMilli(before)).toEpochMilli(),
                time.scaled(Instant.ofEpochMilli(after)).toEpochMilli());
        assertThat(time.now().toEpochMilli()).isGreaterThanOrEqualTo(scaled);
    }

    @Test
    public void a_clock_started_a_minute_ago_at_ten_times_reads_about_ten_minutes_after_its_origin() {
        Instant origin = Instant.ofEpochMilli(System.currentTimeMillis() - 60_000);
        ScaledTime time = new ScaledTime(origin, 10);

        assertThat(Duration.between(origin, time.now())).isGreaterThanOrEqualTo(Duration.ofMinutes(10));
    }

    @Test
    public void nanoseconds_advance_scaled_relative_to_milliseconds() {
        Instant origin = Instant.ofEpochMilli(System.currentTimeMillis() - 60_000);
        ScaledTime time = new ScaledTime(origin, 10);

        // one wall minute has passed since the origin: the nano clock reads ≥ 10 minutes past it too
        long nanosSinceOrigin = time.nanoseconds() - (System.nanoTime() - Duration.ofSeconds(60).toNanos());

        assertThat(nanosSinceOrigin).isGreaterThanOrEqualTo(Duration.ofMinutes(10).toNanos() - Duration.ofSeconds(1).toNanos());
    }

    @Test
    public void the_high_resolution_clock_is_monotonic() {
        ScaledTime time = new ScaledTime(Instant.ofEpochMilli(System.currentTimeMillis()), 50);

        long first = time.hiResClockMs();
        long second = time.hiResClockMs();

        assertThat(second).isGreaterThanOrEqualTo(first);
    }

    @Test
    public void sleep_waits_the_scaled_duration_in_wall_time() {
        ScaledTime time = new ScaledTime(Instant.ofEpochMilli(System.currentTimeMillis()), 1_000);

        long start = System.nanoTime();
        time.sleep(2_000); // 2 s of scaled time = 2 ms of wall time
        long wallMs = Duration.ofNanos(System.nanoTime() - start).toMillis();

        assertThat(wallMs).isGreaterThanOrEqualTo(1).isLessThan(2_000);
    }

    @Test
    public void a_scale_below_one_is_rejected() {
        assertThatThrownBy(() -> new ScaledTime(ORIGIN, 0.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0.5");
    }
}
