/**
 * The one place the stages are wired into a Kafka Streams topology
 * ({@link io.recourse.topology.RecourseTopology}); its description is the golden
 * {@code topology-docs/topology.txt}.
 */
package io.recourse.topology;
