package io.recourse.bench;

/**
 * What the abandoned-turn phase of {@code recourse bench} observed ("confirm
 * evidence of abandoned turns is purged and counted"; DESIGN §4 idle bound and retention).
 *
 * @param sessions               sessions that each opened one turn and never sent another frame
 * @param idleMillis             the idle bound the phase ran with ({@code recourse.evidence.idle.ms})
 * @param retentionMillis        the retention the phase ran with ({@code recourse.evidence.retention.ms})
 * @param openTurnsBefore        turn-store entries of those sessions once their frames were processed
 * @param signalsBefore          their signals readable in the signal window store at that point
 * @param turnStoreBytesBefore   live bytes of the turn store's changelog at that point (key + value)
 * @param expiredCounted         increase of {@code evidence_expired} after the idle bound passed
 * @param turnsAfterPurge        turn-store entries of those sessions after the retention passed
 * @param signalsAfterPurge      their signals still readable in the signal window store then
 * @param turnStoreBytesAfter    live bytes of the turn store's changelog then
 * @param seconds                wall-clock duration of the phase
 */
public record PurgeResult(int sessions, long idleMillis, long retentionMillis, long openTurnsBefore, long signalsBefore,
                          long turnStoreBytesBefore, long expiredCounted, long turnsAfterPurge, long signalsAfterPurge,
                          long turnStoreBytesAfter, double seconds) {

    /** Every abandoned turn was counted as expired, and none of its state is readable any more. */
    public boolean purgedAndCounted() {
        return expiredCounted == openTurnsBefore && openTurnsBefore == sessions && turnsAfterPurge == 0
                && signalsAfterPurge == 0;
    }
}
