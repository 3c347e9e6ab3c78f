package io.idem.providers.runware;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Optional;

/** Lenient reads of Runware's JSON: whatever arrives, these answer with an empty value rather than throw. */
final class RunwareJson {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private RunwareJson() {}

    static Optional<JsonNode> parse(byte[] body) {
        try {
            JsonNode root = MAPPER.readTree(body);
            return root != null && root.isObject() ? Optional.of(root) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isBlank() ? Optional.of(value.asText()) : Optional.empty();
    }
}
