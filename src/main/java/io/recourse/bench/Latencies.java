package io.recourse.bench;

import java.util.Arrays;

/** Latency samples in milliseconds. */
record Latencies(double[] millis) {
    double percentile(double p) {
        if (millis.length == 0) {
            return Double.NaN;
        }
        double[] v = millis.clone();
        Arrays.sort(v);
        int rank = (int) Math.ceil(p / 100.0 * v.length);
        return v[Math.max(0, Math.min(v.length - 1, rank - 1))];
    }

    int count() {
        return millis.length;
    }
}
