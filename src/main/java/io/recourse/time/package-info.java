/**
 * Time helpers shared by the pipeline stages, pure Java with no Kafka types:
 * {@link io.recourse.time.TimeIndexKey}, the one encoding of time-index store keys
 * (DESIGN §2 "Time-index store keys", §8) used by the interactive, routing and evidence time indexes.
 */
package io.recourse.time;
