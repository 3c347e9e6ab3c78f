package io.idem.server.api;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Renders every failure as {@code {"error": {"code", "message", "request_id", ...}}}. */
public final class ApiErrors {
    private static final Logger log = LoggerFactory.getLogger(ApiErrors.class);
    static final String REQUEST_ID = "request_id";

    private ApiErrors() {}

    public static void install(JavalinConfig config) {
        config.routes.before(ctx -> {
            String incoming = ctx.header("X-Request-Id");
            String id = incoming != null && incoming.matches("[A-Za-z0-9._-]{1,64}")
                    ? incoming
                    : "req_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
            ctx.attribute(REQUEST_ID, id);
            ctx.header("X-Request-Id", id);
        });
        config.routes.exception(ApiError.class, (e, ctx) -> render(ctx, e));
        config.routes.exception(
                HttpResponseException.class,
                (e, ctx) -> render(ctx, new ApiError(e.getStatus(), codeFor(e.getStatus()), e.getMessage())));
        config.routes.exception(Exception.class, (e, ctx) -> {
            log.error("unexpected failure on {} {} (request {})", ctx.method(), ctx.path(), requestId(ctx), e);
            render(ctx, new ApiError(500, "internal_error", "internal error; quote the request id"));
        });
        config.routes.error(404, "*", ctx -> {
            if (ctx.result() == null || ctx.result().isEmpty()) {
                render(ctx, new ApiError(404, "route_not_found", "no route " + ctx.method() + " " + ctx.path()));
            }
        });
        config.routes.error(
                405, "*", ctx -> render(ctx, new ApiError(405, "method_not_allowed", "method not allowed")));
    }

    private static String codeFor(int status) {
        return switch (status) {
            case 413 -> "payload_too_large";
            case 415 -> "unsupported_media_type";
            case 404 -> "route_not_found";
            default -> "http_" + status;
        };
    }

    static String requestId(Context ctx) {
        Object id = ctx.attribute(REQUEST_ID);
        return id == null ? "unknown" : id.toString();
    }

    static void render(Context ctx, ApiError e) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", e.code());
        error.put("message", e.getMessage());
        error.put("request_id", requestId(ctx));
        error.putAll(e.extra());
        ctx.status(e.status());
        Json.write(ctx, Map.of("error", error));
    }
}
