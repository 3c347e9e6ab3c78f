package io.idem.providers.replicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.util.Optional;

/** Reads Replicate's JSON leniently: whatever it sends, these answer with an empty value, never throw. */
final class ReplicateJson {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_MESSAGE = 300;

    private ReplicateJson() {}

    static Optional<JsonNode> parse(byte[] body) {
        try {
            JsonNode root = JSON.readTree(body);
            return root != null && root.isObject() ? Optional.of(root) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isBlank() ? Optional.of(value.asText()) : Optional.empty();
    }

    static Optional<URI> uri(String text) {
        try {
            URI uri = URI.create(text);
            return uri.getScheme() == null ? Optional.empty() : Optional.of(uri);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    static String clip(String text) {
        return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE) + "…";
    }
}
