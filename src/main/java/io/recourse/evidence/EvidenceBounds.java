package io.recourse.evidence;

/**
 * The per-turn bounds of evidence (DESIGN §4).
 *
 * @param maxSignals        most signals in one turn's evidence (default 32), the final-chunk
 *                          signal included
 * @param maxSignalBytes    most UTF-8 bytes of one signal, names and values (default 4 KiB);
 *                          also the bound of the final-chunk excerpt
 * @param maxTurnBytes      most UTF-8 bytes of all signals of one turn (default 16 KiB)
 * @param effectTail        how many of the latest effect marks the turn store remembers to find
 *                          the final assistant chunk(s) (default 16): one per message chunk, one
 *                          per run of tool calls, tool-call updates and thought chunks (its first)
 * @throws IllegalArgumentException when a bound is not positive, {@code maxSignals < 2}, or
 *                                  {@code maxTurnBytes < 2 × maxSignalBytes} (the terminal
 *                                  frame and the final chunk must always fit)
 */
public record EvidenceBounds(int maxSignals, int maxSignalBytes, int maxTurnBytes, int effectTail) {

    /** 32 signals, 4 KiB per signal, 16 KiB per turn, 16 remembered effects. */
    public static final EvidenceBounds DEFAULTS = new EvidenceBounds(32, 4096, 16384, 16);

    public EvidenceBounds {
        if (maxSignals < 2) {
            throw new IllegalArgumentException("evidence maxSignals must be at least 2, got " + maxSignals);
        }
        if (maxSignalBytes <= 0) {
            throw new IllegalArgumentException("evidence maxSignalBytes must be positive, got " + maxSignalBytes);
        }
        if (maxTurnBytes < 2 * maxSignalBytes) {
            throw new IllegalArgumentException("evidence maxTurnBytes must be at least 2 x maxSignalBytes ("
                    + 2 * maxSignalBytes + "), got " + maxTurnBytes);
        }
        if (effectTail < 1) {
            throw new IllegalArgumentException("evidence effectTail must be positive, got " + effectTail);
        }
    }
}
