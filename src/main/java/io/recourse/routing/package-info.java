/**
 * Unattended routing (Office; DESIGN §7): the routing owner's decisions as pure Java, no Kafka
 * types.
 *
 * <ul>
 *   <li>Route configuration (§7.1): {@link io.recourse.routing.RouteConfig} and its parts,
 *       {@link io.recourse.routing.RouteConfigJson#read(String)} (parse → {@link io.recourse.routing.LegacyPolicyNormalizer}
 *       → {@link io.recourse.routing.RouteConfigValidator}), {@link io.recourse.routing.RouteConfig#defaultFor}.</li>
 *   <li>The class-policy evaluator (§7.2): {@link io.recourse.routing.RoutingPolicy#evaluate}.</li>
 *   <li>The Office rules (§7.3): {@link io.recourse.routing.Router}, one {@code on…} method per
 *       input, each a function of (input, {@link io.recourse.routing.WorkspaceState}, config lookup,
 *       now, {@link io.recourse.routing.JitterSource}) → {@link io.recourse.routing.RoutingDecision}.</li>
 *   <li>Records of §7.4: {@link io.recourse.routing.RouteCommand}, {@link io.recourse.routing.RunState},
 *       {@link io.recourse.routing.RouteAttempt}, {@link io.recourse.routing.ProviderHealth},
 *       {@link io.recourse.routing.ParkedRun}; timers as {@link io.recourse.routing.TimerEntry}.</li>
 *   <li>{@link io.recourse.routing.RoutingSimulator}: a deterministic scripted driver.</li>
 * </ul>
 */
package io.recourse.routing;
