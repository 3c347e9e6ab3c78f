package io.idem.server.http;

import java.util.Map;

/**
 * A request Idem refuses, with the HTTP status, a stable machine-readable code and a message for
 * people. Thrown by handlers and rendered as {@code {"error": {...}}} by {@link ApiErrors}.
 */
public final class ApiError extends io.idem.core.IdemException {
    private final int status;
    private final String code;
    private final Map<String, Object> extra;

    public ApiError(int status, String code, String message) {
        this(status, code, message, Map.of());
    }

    public ApiError(int status, String code, String message, Map<String, Object> extra) {
        super(message, false);
        this.status = status;
        this.code = code;
        this.extra = Map.copyOf(extra);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Map<String, Object> extra() {
        return extra;
    }

    public static ApiError badRequest(String code, String message) {
        return new ApiError(400, code, message);
    }

    public static ApiError notFound(String what) {
        return new ApiError(404, what + "_not_found", "no such " + what.replace('_', ' '));
    }
}
