package io.idem.server.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.javalin.http.Context;
import java.io.UncheckedIOException;

/** The one JSON mapper of the HTTP layer; responses are plain maps and lists. */
public final class Json {
    public static final ObjectMapper MAPPER =
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, false);
    /** Canonical form: keys sorted, used for request hashes. */
    static final ObjectMapper CANONICAL =
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private Json() {}

    public static void write(Context ctx, Object body) {
        try {
            ctx.contentType("application/json").result(MAPPER.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses a request body; anything but a JSON object is a 400. */
    public static JsonNode readObject(Context ctx, long maxBytes) {
        String length = ctx.header("Content-Length");
        if (length != null && length.matches("\\d+") && Long.parseLong(length) > maxBytes) {
            throw new ApiError(413, "payload_too_large", "request body is over " + maxBytes + " bytes");
        }
        byte[] body = ctx.bodyAsBytes();
        if (body.length > maxBytes) {
            throw new ApiError(413, "payload_too_large", "request body is over " + maxBytes + " bytes");
        }
        if (body.length == 0) {
            throw ApiError.badRequest("invalid_json", "request body is empty; expected a JSON object");
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (java.io.IOException e) {
            throw ApiError.badRequest("invalid_json", "request body is not valid JSON");
        }
        if (node == null || !node.isObject()) {
            throw ApiError.badRequest("invalid_json", "request body must be a JSON object");
        }
        return node;
    }
}
