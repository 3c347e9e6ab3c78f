package io.idem.server.http;

import java.util.Map;

/**
 * A request Idem refuses, with the HTTP status, a stable machine-readable code, a message for
 * people, and what it tells a client's automatic retries ({@link RetryAdvice#NEVER} unless said
 * otherwise). Thrown by handlers and rendered as {@code {"error": {...}}} by {@link ApiErrors}.
 */
public final class ApiError extends io.idem.core.IdemException {
    private final int status;
    private final String code;
    private final Map<String, Object> extra;
    private final RetryAdvice retry;

    public ApiError(int status, String code, String message) {
        this(status, code, message, Map.of());
    }

    public ApiError(int status, String code, String message, Map<String, Object> extra) {
        this(status, code, message, extra, RetryAdvice.NEVER);
    }

    public ApiError(int status, String code, String message, Map<String, Object> extra, RetryAdvice retry) {
        super(message, false);
        this.status = status;
        this.code = code;
        this.extra = Map.copyOf(extra);
        this.retry = java.util.Objects.requireNonNull(retry, "retry");
    }

    /** This refusal with other retry advice. */
    public ApiError advising(RetryAdvice advice) {
        return new ApiError(status, code, getMessage(), extra, advice);
    }

    public RetryAdvice retry() {
        return retry;
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
