/**
 * What is not domain, shared by the stages' Kafka plumbing: topic declarations
 * ({@link io.recourse.kit.Topic}, {@link io.recourse.kit.Topics}), the Avro serde
 * ({@link io.recourse.kit.AvroSerde}), bounded
 * metric tags ({@link io.recourse.kit.BoundedTag}) and {@link io.recourse.kit.TimeIndexKey}, the one encoding
 * of time-index store keys (DESIGN §2 "Time-index store keys", §8).
 */
package io.recourse.kit;
