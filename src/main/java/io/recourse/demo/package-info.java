/**
 * The demos of {@code recourse demo} and {@code recourse demo-routing}: scenarios, scripted
 * dispatchers, the checks of what each scenario must produce, and their reports.
 */
package io.recourse.demo;
