package io.idem.providers.fake;

/**
 * The bytes on a connection are not a request the fake vendor can frame. The connection answers
 * with {@code status} and closes, since it no longer knows where the next request would start.
 */
final class MalformedRequestException extends Exception {
    private final int status;
    private final String code;

    MalformedRequestException(int status, String code, String message) {
        super(message);
        this.status = status;
        this.code = code;
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }
}
