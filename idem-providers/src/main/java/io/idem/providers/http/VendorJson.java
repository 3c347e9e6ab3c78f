package io.idem.providers.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;

/**
 * Lenient reads of a vendor's JSON, shared by every adapter: whatever arrives, these answer with an
 * empty value rather than throw, because a vendor's answer is evidence to classify, not input to
 * trust. Stateless and thread-safe ({@link #MAPPER} is configured once and only read).
 */
public final class VendorJson {
    /** The one mapper adapters build and read vendor JSON with. */
    public static final ObjectMapper MAPPER = PooledJson.mapper();

    private VendorJson() {}

    /** The body as a JSON object; empty if it is not JSON or not an object. */
    public static Optional<JsonNode> parse(byte[] body) {
        try {
            JsonNode root = MAPPER.readTree(body);
            return root != null && root.isObject() ? Optional.of(root) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** {@code node.field} if it is a string with something in it. */
    public static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isBlank() ? Optional.of(value.asText()) : Optional.empty();
    }

    /** {@code text} as an absolute URI; empty if it is not one. */
    public static Optional<URI> uri(String text) {
        try {
            URI uri = URI.create(text);
            return uri.getScheme() == null ? Optional.empty() : Optional.of(uri);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
