package io.idem.server.http;

import io.javalin.config.JavalinConfig;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty raises before a request reaches a route (a header block over the limit: 431, a URI
 * over it: 414, broken framing: 400, a body over the limit: 413) come back in the API's own shape,
 * {@code {"error": {"code", "message", "request_id"}}}, wherever the connection can still answer.
 * Jetty's default page would be HTML quoting the reason; this never quotes the request.
 */
final class JettyErrors extends ErrorHandler {

    private JettyErrors() {}

    static void install(JavalinConfig config) {
        config.jetty.modifyServer(server -> server.setErrorHandler(new JettyErrors()));
    }

    @Override
    protected void generateResponse(
            Request request, Response response, int code, String message, Throwable cause, Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        String id = newRequestId();
        response.getHeaders().put("X-Request-Id", id);
        response.getHeaders().put("x-should-retry", "false");
        response.write(true, ByteBuffer.wrap(body(code, id)), callback);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, "application/json");
        return ByteBuffer.wrap(body(status, newRequestId()));
    }

    /** Writes the error shape straight to a servlet response (for failures past Javalin's own mappers). */
    static void writeJson(HttpServletResponse response, int status, String code, String message, String requestId) {
        if (response.isCommitted()) {
            return;
        }
        try {
            response.resetBuffer();
            response.setStatus(status);
            response.setContentType("application/json");
            response.setHeader("x-should-retry", "false");
            response.getOutputStream().write(body(status, code, message, requestId));
        } catch (IOException | IllegalStateException e) {
            // the connection is gone or the answer already started; nothing more can be said
        }
    }

    private static byte[] body(int status, String requestId) {
        return body(status, ApiErrors.codeFor(status), reasonFor(status), requestId);
    }

    private static byte[] body(int status, String code, String message, String requestId) {
        try {
            return Json.MAPPER.writeValueAsBytes(ApiErrors.shape(code, message, requestId, Map.of()));
        } catch (IOException e) {
            return ("{\"error\":{\"code\":\"" + code + "\"}}").getBytes(StandardCharsets.US_ASCII);
        }
    }

    private static String reasonFor(int status) {
        return switch (status) {
            case 400 -> "the request is malformed (framing, encoding or header syntax)";
            case 413 -> "the request body is over the size limit";
            case 414 -> "the request URI is over the size limit";
            case 431 -> "the request headers are over the size limit";
            default -> status >= 500 ? "internal error" : "the request was refused (HTTP " + status + ")";
        };
    }

    private static String newRequestId() {
        return ApiErrors.newRequestId();
    }
}
