package io.idem.server.http;

import io.javalin.http.Context;

/** The {@code Idempotency-Key} header, as every route that creates something reads it. */
public final class IdempotencyKey {
    public static final String HEADER = "Idempotency-Key";

    private IdempotencyKey() {}

    /** The request's key, checked ({@link #check}); {@code null} when it sends none. */
    public static String from(Context ctx) {
        return check(ctx.header(HEADER));
    }

    /** Validates an {@code Idempotency-Key}: 1..255 printable ASCII characters; a 400 otherwise. */
    public static String check(String key) {
        if (key == null) {
            return null;
        }
        if (key.isEmpty() || key.length() > 255) {
            throw ApiError.badRequest("invalid_idempotency_key", "Idempotency-Key must be 1..255 characters");
        }
        for (int i = 0; i < key.length(); i++) {
            char ch = key.charAt(i);
            if (ch < 0x20 || ch > 0x7e) {
                throw ApiError.badRequest("invalid_idempotency_key", "Idempotency-Key must be printable ASCII");
            }
        }
        return key;
    }
}
