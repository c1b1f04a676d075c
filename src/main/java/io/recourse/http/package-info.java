/**
 * The HTTP server of an instance (DESIGN §10): the interactive queries over the owners' stores, answered
 * by the owning instance and forwarded otherwise; health, metrics, the OpenAPI description and the
 * status page.
 */
package io.recourse.http;
