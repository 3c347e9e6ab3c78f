package io.idem.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.idem.providers.http.PooledJson;
import io.javalin.http.Context;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The one JSON mapper of the HTTP layer; responses are plain maps and lists. */
public final class Json {
    public static final ObjectMapper MAPPER =
            PooledJson.mapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, false);
    /** Canonical form: keys sorted, used for request hashes. */
    public static final ObjectMapper CANONICAL =
            PooledJson.mapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private Json() {}

    public static void write(Context ctx, Object body) {
        try {
            ctx.contentType("application/json").result(MAPPER.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Parses a request body strictly ({@link StrictJson}); a body over {@code maxBytes} is a 413,
     * a body whose framing is broken (e.g. invalid chunked encoding) a 400.
     */
    public static JsonNode readObject(Context ctx, long maxBytes) {
        return StrictJson.readObject(body(ctx, maxBytes));
    }

    /** How much of a refused body is read and discarded so the refusal reaches the client. */
    static final long DRAIN_LIMIT_BYTES = 16L * 1024 * 1024;

    static final java.time.Duration DRAIN_FOR = java.time.Duration.ofSeconds(5);
    static final java.time.Duration DRAIN_IDLE = java.time.Duration.ofMillis(250);

    /** A {@code Content-Length} whose value fits a long: one to eighteen digits. */
    private static final java.util.regex.Pattern LENGTH = java.util.regex.Pattern.compile("\\d{1,18}");
    /** The longest body read into one array of its declared length. */
    private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

    /** The request's raw body, at most {@code maxBytes} long. */
    public static byte[] body(Context ctx, long maxBytes) {
        String length = ctx.header("Content-Length");
        long declared = length != null && LENGTH.matcher(length).matches() ? Long.parseLong(length) : -1;
        if (declared > maxBytes) {
            drainUnlessContinueExpected(ctx);
            throw tooLarge(maxBytes);
        }
        byte[] body;
        try {
            body = declared >= 0 && declared <= MAX_ARRAY ? declared(ctx, (int) declared) : ctx.bodyAsBytes();
        } catch (IOException e) {
            throw ApiError.badRequest("invalid_body", "the request body could not be read: it ended early");
        } catch (RuntimeException e) {
            if (e instanceof io.javalin.http.HttpResponseException http && http.getStatus() == 413) {
                drainUnlessContinueExpected(ctx);
                throw tooLarge(maxBytes);
            }
            // Jetty reports broken framing (bad chunk sizes, a body cut short) while it is read.
            throw ApiError.badRequest("invalid_body", "the request body could not be read: its framing is invalid");
        }
        if (body.length > maxBytes) {
            throw tooLarge(maxBytes);
        }
        return body;
    }

    /**
     * A body of a declared length (at most {@code maxBytes}, checked before), read into an array of
     * exactly that size. Javalin's own read goes through a fresh 8 KB buffer and a growing copy, which
     * was a tenth of what a chat call allocated; bodies without a length (chunked) still take it.
     */
    private static byte[] declared(Context ctx, int length) throws IOException {
        byte[] body = ctx.req().getInputStream().readNBytes(length);
        if (body.length < length) {
            throw new EOFException("the body ended after " + body.length + " of " + length + " bytes");
        }
        return body;
    }

    /** A field a route does not know is refused ({@code 400 unknown_field}), not ignored: a typo must not pass for a setting. */
    public static void refuseUnknown(JsonNode body, java.util.Set<String> known) {
        body.fieldNames().forEachRemaining(field -> {
            if (!known.contains(field)) {
                throw ApiError.badRequest(
                        "unknown_field", "unknown field '" + field + "'; known: " + new java.util.TreeSet<>(known));
            }
        });
    }

    /** A text field of a request body: {@code fallback} when absent or null, a 400 when not a string. */
    public static String text(JsonNode body, String field, String fallback) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return fallback;
        }
        if (!node.isTextual()) {
            throw ApiError.badRequest("invalid_" + field, field + " must be a string");
        }
        return node.asText();
    }

    /**
     * Reads and discards what is left of a refused body so the 413 reaches the client: a server that
     * answers and closes with unread bytes in its receive buffer makes the kernel reset the
     * connection, and the client sees "connection reset" instead of the answer. It reads only what
     * keeps arriving: at most {@link #DRAIN_LIMIT_BYTES}, for at most {@link #DRAIN_FOR}, and it stops
     * once nothing arrived for {@link #DRAIN_IDLE} (a client that declared more than it sends, or that
     * waits for the answer first). A client that sent {@code Expect: 100-continue} has not sent the
     * body yet; it is answered at once.
     */
    private static void drainUnlessContinueExpected(Context ctx) {
        String expect = ctx.header("Expect");
        if (expect != null && expect.equalsIgnoreCase("100-continue")) {
            return;
        }
        try {
            var in = ctx.req().getInputStream();
            byte[] sink = new byte[64 * 1024];
            long left = DRAIN_LIMIT_BYTES;
            long started = System.nanoTime();
            long lastRead = started;
            while (left > 0 && System.nanoTime() - started < DRAIN_FOR.toNanos()) {
                int available = in.available();
                if (available > 0) {
                    int read = in.read(sink, 0, (int) Math.min(Math.min(sink.length, available), left));
                    if (read < 0) {
                        return;
                    }
                    left -= read;
                    lastRead = System.nanoTime();
                } else if (in.isFinished() || System.nanoTime() - lastRead > DRAIN_IDLE.toNanos()) {
                    return;
                } else {
                    Thread.sleep(2);
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // The client went away or broke the framing; the 413 is still the answer.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ApiError tooLarge(long maxBytes) {
        return new ApiError(413, "payload_too_large", "request body is over " + maxBytes + " bytes");
    }
}
