package io.idem.providers.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Optional;

/** Lenient reads of vendor JSON: whatever arrives, these answer with an empty value rather than throw. */
final class OpenAiJson {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private OpenAiJson() {}

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
