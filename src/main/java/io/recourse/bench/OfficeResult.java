package io.recourse.bench;

import java.util.Map;

/**
 * What a realistic-workload run of the full topology measured of the routing owner (DESIGN §7):
 * its decisions under the load of the run, and how fast it answered failed turns. Times are
 * seconds or milliseconds; {@code NaN} where nothing was seen.
 *
 * @param runs                  Office runs requested (RunRequests in the workload)
 * @param routeCommands         RouteCommands read ({@code read_committed})
 * @param runStates             RunStates read
 * @param seconds               first record of the workload sent → last RouteCommand or RunState read
 * @param decisionsPerSecond    {@code (routeCommands + runStates) / seconds}: set by the workload (retry
 *                              delays, the quota reset), not the owner's maximum
 * @param actions               RouteCommands per {@code action}
 * @param failedTurns           dispatched turns that failed, per ending ({@code capacity}, {@code quota}, {@code auth})
 * @param runsByStatus          runs that reached each RunState {@code status}
 * @param runsWithCompletedTurn runs whose dispatched turn completed (after retries, fall-through or a wake)
 * @param framesSent            frames the dispatcher sent (not in the run's {@code records})
 * @param answerP50             failed turn's terminal frame sent → first RouteCommand (later attempt) or
 *                              RunState (short retry, cooldown, parked, blocked, declined) of its run with a code, ms
 * @param answerP99             likewise, 99th percentile
 * @param answerCount           failed turns answered
 * @param settled               whether every run had a completed turn or ended blocked or declined in time
 */
public record OfficeResult(int runs, long routeCommands, long runStates, double seconds, double decisionsPerSecond,
                           Map<String, Integer> actions, Map<String, Integer> failedTurns, Map<String, Integer> runsByStatus,
                           int runsWithCompletedTurn, long framesSent, double answerP50, double answerP99, int answerCount,
                           boolean settled) {
}
