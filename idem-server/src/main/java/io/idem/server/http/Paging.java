package io.idem.server.http;

import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/**
 * How list routes page, newest first: {@code limit} (1..200) and an opaque {@code cursor} that
 * names the last row of the previous page by its time and id. A cursor this server did not issue is
 * {@code 400 invalid_cursor}; a bad limit {@code 400 invalid_limit}.
 */
public final class Paging {
    public static final int MAX_LIMIT = 200;
    private static final Instant LAST_CURSOR_TIME = Instant.parse("9999-12-31T23:59:59Z");

    /** Where a page ended: the last row's time and id. */
    public record Position(Instant at, UUID id) {}

    private Paging() {}

    /** The request's {@code limit}, or {@code fallback} when it names none. */
    public static int limit(Context ctx, int fallback) {
        String value = ctx.queryParam("limit");
        if (value == null) {
            return fallback;
        }
        if (!value.matches("\\d{1,3}") || Integer.parseInt(value) < 1 || Integer.parseInt(value) > MAX_LIMIT) {
            throw ApiError.badRequest("invalid_limit", "limit must be 1.." + MAX_LIMIT);
        }
        return Integer.parseInt(value);
    }

    /** The request's {@code cursor}, if it sent one. */
    public static Optional<Position> cursor(Context ctx) {
        String value = ctx.queryParam("cursor");
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        try {
            String raw = new String(Base64.getUrlDecoder().decode(value), StandardCharsets.UTF_8);
            String[] parts = raw.split("\\|", 2);
            Instant at = Instant.parse(parts[0]);
            // PostgreSQL keeps far fewer years than Instant; a forged cursor must not reach it.
            if (at.isBefore(Instant.EPOCH) || at.isAfter(LAST_CURSOR_TIME)) {
                throw new IllegalArgumentException("cursor time out of range");
            }
            return Optional.of(new Position(at, Ids.uuid(parts[1]).orElseThrow()));
        } catch (RuntimeException e) {
            throw ApiError.badRequest("invalid_cursor", "cursor is not one this server issued");
        }
    }

    /** The cursor that continues after the row at {@code at} with {@code id}. */
    public static String encode(Instant at, UUID id) {
        String raw = at.toString() + "|" + id;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }
}
