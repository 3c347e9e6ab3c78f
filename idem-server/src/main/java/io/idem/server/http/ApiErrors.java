package io.idem.server.http;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Renders every failure as {@code {"error": {"code", "message", "request_id", ...}}}. */
public final class ApiErrors {
    private static final Logger log = LoggerFactory.getLogger(ApiErrors.class);
    static final String REQUEST_ID = "request_id";
    /** A request id a client may choose; any other is replaced by a new one. */
    private static final Pattern CLIENT_REQUEST_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private ApiErrors() {}

    public static void install(JavalinConfig config) {
        config.routes.before(ctx -> {
            String incoming = ctx.header("X-Request-Id");
            String id = incoming != null && CLIENT_REQUEST_ID.matcher(incoming).matches() ? incoming : newRequestId();
            ctx.attribute(REQUEST_ID, id);
            ctx.header("X-Request-Id", id);
        });
        config.routes.exception(ApiError.class, (e, ctx) -> render(ctx, e));
        config.routes.exception(
                HttpResponseException.class,
                (e, ctx) -> render(ctx, new ApiError(e.getStatus(), codeFor(e.getStatus()), e.getMessage())));
        config.routes.exception(Exception.class, (e, ctx) -> {
            ApiError clientMistake = clientMistake(e);
            if (clientMistake != null) {
                render(ctx, clientMistake);
                return;
            }
            log.error("unexpected failure on {} {} (request {})", ctx.method(), ctx.path(), requestId(ctx), e);
            render(ctx, internal());
        });
        // An Error (a StackOverflowError, say) is still one logged 500 in the usual shape, never an
        // empty answer or a hang; its stack is clipped so one request cannot flood the log.
        config.router.javaLangErrorHandler((response, error) -> {
            String id = response.getHeader("X-Request-Id");
            log.error("unexpected error (request {})", id == null ? "unknown" : id, clipped(error));
            JettyErrors.writeJson(response, 500, internal().code(), internal().getMessage(), id);
        });
        JettyErrors.install(config);
        config.routes.error(404, "*", ctx -> {
            if (ctx.result() == null || ctx.result().isEmpty()) {
                render(ctx, new ApiError(404, "route_not_found", "no route " + ctx.method() + " " + ctx.path()));
            }
        });
        config.routes.error(
                405, "*", ctx -> render(ctx, new ApiError(405, "method_not_allowed", "method not allowed")));
    }

    private static ApiError internal() {
        return new ApiError(500, "internal_error", "internal error; quote the request id");
    }

    /**
     * The client's mistake found while Jetty read the request (broken chunked framing, a bad form
     * encoding), as a 4xx; {@code null} when {@code e} is something else.
     */
    static ApiError clientMistake(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.eclipse.jetty.http.HttpException http
                    && http.getCode() >= 400
                    && http.getCode() < 500) {
                return new ApiError(
                        http.getCode(),
                        codeFor(http.getCode()),
                        "the request could not be read: "
                                + (http.getReason() == null ? "malformed" : clip(http.getReason())));
            }
        }
        return null;
    }

    private static String clip(String text) {
        return text.length() > 120 ? text.substring(0, 120) + "…" : text;
    }

    /** {@code error} with at most 40 frames of its stack, for one readable log entry. */
    static Throwable clipped(Throwable error) {
        StackTraceElement[] frames = error.getStackTrace();
        if (frames.length <= 40) {
            return error;
        }
        Throwable shortened = new Throwable(error + " (stack clipped to 40 of " + frames.length + " frames)");
        shortened.setStackTrace(java.util.Arrays.copyOf(frames, 40));
        return shortened;
    }

    static String codeFor(int status) {
        return switch (status) {
            case 400 -> "bad_request";
            case 413 -> "payload_too_large";
            case 414 -> "uri_too_long";
            case 431 -> "headers_too_large";
            case 415 -> "unsupported_media_type";
            case 404 -> "route_not_found";
            default -> "http_" + status;
        };
    }

    /** This request's id, as its {@code X-Request-Id} says it. */
    public static String requestId(Context ctx) {
        Object id = ctx.attribute(REQUEST_ID);
        return id == null ? "unknown" : id.toString();
    }

    /** Answers with {@code e} in the error shape, with its retry advice. */
    public static void render(Context ctx, ApiError e) {
        ctx.status(e.status());
        e.retry().apply(ctx);
        Json.write(ctx, shape(e.code(), e.getMessage(), requestId(ctx), e.extra()));
    }

    /** The error body {@code e} renders as for this request, as JSON text (kept for replays). */
    public static String body(Context ctx, ApiError e) {
        return Json.MAPPER
                .valueToTree(shape(e.code(), e.getMessage(), requestId(ctx), e.extra()))
                .toString();
    }

    /**
     * Answers as the request first answered: {@code X-Request-Id} (header and error bodies) becomes
     * the original request's id, when it is known.
     */
    public static void replayRequestId(Context ctx, String originalId) {
        if (originalId != null) {
            ctx.attribute(REQUEST_ID, originalId);
            ctx.header("X-Request-Id", originalId);
        }
    }

    /** The one error shape: {@code {"error": {"code", "message", "request_id", ...extra}}}. */
    static Map<String, Object> shape(String code, String message, String requestId, Map<String, Object> extra) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("message", message);
        error.put("request_id", requestId == null ? "unknown" : requestId);
        error.putAll(extra);
        return Map.of("error", error);
    }

    /**
     * {@code req_} and 20 random hex digits (80 bits). A request id names a request in logs and
     * support; it grants nothing, so it comes from the thread's fast generator rather than the
     * system's secure one, which reads the kernel's entropy under a lock on every call.
     */
    static String newRequestId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String high = Long.toHexString(random.nextLong() | Long.MIN_VALUE).substring(1); // 15 digits
        String low = Integer.toHexString(random.nextInt(1 << 20) | (1 << 20)).substring(1); // 5 digits
        return "req_" + high + low;
    }
}
