package io.idem.server.http;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.function.Function;

/**
 * Opaque list cursors: the fields of a place in a list, joined by {@code |} and base64url-encoded.
 * Reading one back is strict: a cursor this server did not issue, or one carrying a time outside
 * 1970–9999 (PostgreSQL keeps far fewer years than {@link Instant}), is {@code 400 invalid_cursor}.
 */
public final class Cursors {
    private static final Instant LAST_TIME = Instant.parse("9999-12-31T23:59:59Z");

    private Cursors() {}

    public static String encode(String... fields) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(String.join("|", fields).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The place {@code value} names, read by {@code parse} from exactly {@code fields} fields;
     * {@code null} for no cursor. Anything {@code parse} throws makes the cursor invalid.
     */
    public static <T> T decode(String value, int fields, Function<String[], T> parse) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            String raw = new String(Base64.getUrlDecoder().decode(value), StandardCharsets.UTF_8);
            String[] parts = raw.split("\\|", -1);
            if (parts.length != fields) {
                throw new IllegalArgumentException("wrong number of fields");
            }
            return parse.apply(parts);
        } catch (RuntimeException e) {
            throw ApiError.badRequest("invalid_cursor", "cursor is not one this server issued");
        }
    }

    /** An ISO-8601 instant between 1970 and 9999, or an {@link IllegalArgumentException}. */
    public static Instant time(String text) {
        Instant at;
        try {
            at = Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not an ISO-8601 instant", e);
        }
        if (at.isBefore(Instant.EPOCH) || at.isAfter(LAST_TIME)) {
            throw new IllegalArgumentException("time out of range");
        }
        return at;
    }

    /** A positive whole number of at most 18 digits (a table's id), or an {@link IllegalArgumentException}. */
    public static long sequence(String text) {
        if (!text.matches("[1-9][0-9]{0,17}")) {
            throw new IllegalArgumentException("not a sequence number");
        }
        return Long.parseLong(text);
    }
}
