package io.recourse.routing;

import io.recourse.taxonomy.Scope;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * What health and cooldowns attach to (DESIGN §1): {@code (workspace, provider)} when
 * {@code scope = provider} (then {@code scopeValue} is the provider id), or
 * {@code (workspace, provider, model)} when {@code scope = model} ({@code scopeValue} = model id).
 */
public record ScopeKey(String workspaceId, String providerId, Scope scope, String scopeValue) {

    /** The provider scope of {@code providerId}. */
    public static ScopeKey provider(String workspaceId, String providerId) {
        return new ScopeKey(workspaceId, providerId, Scope.PROVIDER, providerId);
    }

    /** The model scope of {@code providerId}/{@code modelId}. */
    public static ScopeKey model(String workspaceId, String providerId, String modelId) {
        return new ScopeKey(workspaceId, providerId, Scope.MODEL, modelId);
    }

    /** The scope of a classification on a candidate. */
    public static ScopeKey of(String workspaceId, Candidate c, Scope scope) {
        return scope == Scope.MODEL ? model(workspaceId, c.providerId(), c.modelId()) : provider(workspaceId, c.providerId());
    }

    /**
     * The health key of DESIGN §2: {@code <workspace>/<provider>/<scope>/<scope_value>}, each part
     * percent-encoded (UTF-8; model ids contain {@code /}).
     */
    public String healthKey() {
        return enc(workspaceId) + "/" + enc(providerId) + "/" + scope.wire() + "/" + enc(scopeValue);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public String toString() {
        return healthKey();
    }
}
