package io.idem.server.metrics;

import io.idem.core.domain.Role;
import io.idem.server.http.Auth;
import io.idem.server.http.Feature;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * {@code GET /metrics}: the Prometheus text format, for a scraper presenting the configured scrape
 * token ({@code metrics_token}) as a bearer token, or for an admin key.
 */
public final class MetricsApi implements Feature {
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final Auth auth;
    private final Metrics metrics;
    private final Optional<byte[]> token;

    public MetricsApi(Auth auth, Metrics metrics, Optional<String> token) {
        this.auth = auth;
        this.metrics = metrics;
        this.token = token.map(t -> t.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void install(JavalinConfig config) {
        config.routes.get("/metrics", this::scrape);
    }

    private void scrape(Context ctx) {
        if (!presentsToken(ctx.header("Authorization"))) {
            auth.require(ctx, Role.ADMIN);
        }
        ctx.contentType(CONTENT_TYPE).result(metrics.scrape());
    }

    private boolean presentsToken(String authorization) {
        if (token.isEmpty() || authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        byte[] given = authorization.substring(7).trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, token.get());
    }
}
