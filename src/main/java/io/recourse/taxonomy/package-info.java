/**
 * The shared vocabulary of DESIGN §5.1 at the bottom of the layering: semantic
 * {@link io.recourse.taxonomy.Code}s, their {@link io.recourse.taxonomy.ErrorClass}, the
 * {@link io.recourse.taxonomy.Classification} of a failed turn with its
 * {@link io.recourse.taxonomy.Confidence} and {@link io.recourse.taxonomy.Scope}, a dispatcher's
 * {@link io.recourse.taxonomy.AckStatus}, and {@link io.recourse.taxonomy.WireName}, how every enum of
 * the model is written on the wire. Pure Java, no dependencies.
 */
package io.recourse.taxonomy;
