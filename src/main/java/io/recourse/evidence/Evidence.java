package io.recourse.evidence;

import java.time.Instant;
import java.util.List;

/**
 * The evidence of one closed turn (DESIGN §4): its kept signals in {@code seq} order plus the
 * effect flags — the classifier's whole input.
 *
 * @param launch               true when the turn failed before its {@code session/prompt}
 *                             request (a launch failure, DESIGN §1)
 * @param signals              kept signals in {@code seq} order, within the bounds of DESIGN §4
 * @param terminalAt           {@code occurred_at} of the terminal frame (UTC); hints not after it
 *                             are dropped
 * @param stopReason           the {@code session/prompt} result's {@code stopReason}, or {@code null}
 * @param droppedSignals       signals dropped by the bounds
 */
public record Evidence(
        String sessionId,
        int promptGeneration,
        String agentType,
        String providerId,
        String modelId,
        boolean launch,
        List<Signal> signals,
        Instant terminalAt,
        String stopReason,
        boolean assistantOutputSeen,
        boolean toolActivitySeen,
        int droppedSignals) {

    public Evidence {
        signals = List.copyOf(signals);
    }
}
