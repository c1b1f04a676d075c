/**
 * Recourse's settings ({@link io.recourse.config.RecourseConfig}): defaults, properties file and
 * {@code RECOURSE_*} environment, validated at load, read by the stages through typed accessors.
 * Pure Java, no Kafka types.
 */
package io.recourse.config;
