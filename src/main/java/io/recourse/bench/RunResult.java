package io.recourse.bench;

import java.util.Map;

/**
 * What one run of a {@link Scenario} measured. Rates are frames per second, latencies
 * milliseconds, sizes bytes; {@code NaN} where the run did not measure it (e.g. no
 * RecoveryState output on a topology without the interactive owner).
 *
 * @param scenario              what ran
 * @param records               records produced by the workload (frames, duplicates, malformed)
 * @param seconds               first produce → last sentinel output visible to a {@code read_committed} consumer
 * @param framesPerSecond       {@code records / seconds}
 * @param classificationP50     terminal frame produced → its Classification readable (pass-through: its copy readable)
 * @param classificationP99     likewise, 99th percentile
 * @param classificationCount   failing turns whose output was seen
 * @param scheduledP50          terminal frame produced → RecoveryState {@code scheduled} readable
 * @param scheduledP99          likewise, 99th percentile
 * @param scheduledCount        failing turns whose {@code scheduled} state was seen
 * @param stateBytesPerSession  live changelog bytes (latest value per key) after the workload, per session
 * @param stateBytesPerOpenTurn live changelog bytes added by one open half-turn per session, per turn
 * @param storeBytes            per store: live changelog bytes after the workload
 * @param rocksDbBytes          RocksDB SST files + memtables of all stores after the workload
 * @param heapDeltaBytes        heap used after GC, minus the same before Streams started (broker in the same JVM)
 * @param rssBytes              resident set size of this JVM (broker included) after the workload
 * @param loadAverage           1-minute load average when the run ended
 * @param timedOut              whether the sentinels were not all seen in time (then {@code seconds} is the timeout)
 * @param office                the routing owner's figures (realistic workload, full topology), else {@code null}
 */
public record RunResult(Scenario scenario, long records, double seconds, double framesPerSecond,
                        double classificationP50, double classificationP99, int classificationCount,
                        double scheduledP50, double scheduledP99, int scheduledCount,
                        double stateBytesPerSession, double stateBytesPerOpenTurn, Map<String, Long> storeBytes,
                        double rocksDbBytes, double heapDeltaBytes, double rssBytes, double loadAverage,
                        boolean timedOut, OfficeResult office) {
}
