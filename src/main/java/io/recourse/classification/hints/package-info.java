/**
 * Timing-hint parsers (DESIGN §5.2): pure functions from the text of a header, body or message
 * to an {@link java.time.Instant} in UTC, plus {@link io.recourse.classification.hints.HintValidator}
 * which drops hints not strictly after the terminal frame or beyond the horizon.
 *
 * <p>Every parser returns {@link java.util.Optional#empty()} for anything it does not recognize
 * (never throws, never guesses); relative forms resolve against the {@code base} argument, the
 * carrying signal's {@code occurred_at}. Inputs are length-bounded and every regex uses bounded
 * or possessive repetition, so adversarial inputs parse in linear time.
 * {@link io.recourse.classification.hints.HintExtractor} names each parser for the catalogue.
 */
package io.recourse.classification.hints;
