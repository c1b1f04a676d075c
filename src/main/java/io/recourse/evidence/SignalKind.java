package io.recourse.evidence;

import com.fasterxml.jackson.annotation.JsonValue;
import io.recourse.taxonomy.WireName;

/**
 * The failure positions a signal can come from (DESIGN §5.2: "match only failure positions").
 * Catalogue rules name a kind and one of its fields ({@link Signal#fields()}).
 *
 * <table>
 *   <caption>fields per kind</caption>
 *   <tr><th>kind</th><th>from</th><th>fields</th></tr>
 *   <tr><td>{@code error}</td><td>JSON-RPC error (acp_error, or an error response)</td><td>{@code code}, {@code message}, {@code data} (compact JSON)</td></tr>
 *   <tr><td>{@code stderr}</td><td>a managed stderr line</td><td>{@code line}</td></tr>
 *   <tr><td>{@code exit}</td><td>process exit</td><td>{@code code}, {@code signal}</td></tr>
 *   <tr><td>{@code http}</td><td>provider HTTP metadata</td><td>{@code status}, {@code body} (text or compact JSON), {@code header.<lower-case name>}</td></tr>
 *   <tr><td>{@code stop}</td><td>the {@code session/prompt} result</td><td>{@code stop_reason}</td></tr>
 *   <tr><td>{@code update_meta}</td><td>a {@code session/update} carrying failure metadata (e.g. Codex {@code session_info_update} {@code _meta} system error)</td><td>{@code update} (the {@code sessionUpdate} type), {@code meta} (compact JSON), {@code text}</td></tr>
 *   <tr><td>{@code final_chunk}</td><td>the final assistant chunk(s) before the terminal frame</td><td>{@code text}</td></tr>
 *   <tr><td>{@code lifecycle}</td><td>gateway markers {@code launch_failed}, {@code turn_abandoned}</td><td>{@code event}, {@code message}, {@code phase}</td></tr>
 * </table>
 */
public enum SignalKind implements WireName {
    ERROR, STDERR, EXIT, HTTP, STOP, UPDATE_META, FINAL_CHUNK, LIFECYCLE;

    @JsonValue
    @Override
    public String wire() {
        return WireName.of(this);
    }
}
