package io.recourse.routing;

/**
 * A change of the parked-run table: {@code parked} is the new record, or {@code null} when the run
 * is released (write a tombstone for {@code runId}).
 */
public record ParkedRunChange(String runId, ParkedRun parked) {

    /** True when this change releases the run. */
    public boolean release() {
        return parked == null;
    }
}
