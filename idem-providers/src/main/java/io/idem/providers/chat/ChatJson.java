package io.idem.providers.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.idem.core.chat.TokenUsage;
import java.io.IOException;
import java.util.Optional;

/** The chat adapters' JSON mapper and tolerant readers: a vendor may send anything. */
final class ChatJson {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final JsonNode MISSING = MissingNode.getInstance();

    private ChatJson() {}

    static Optional<JsonNode> parse(byte[] body) {
        try {
            return Optional.ofNullable(MAPPER.readTree(body)).filter(JsonNode::isObject);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static Optional<JsonNode> parse(String text) {
        try {
            return Optional.ofNullable(MAPPER.readTree(text)).filter(JsonNode::isObject);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
    }

    /** OpenAI's {@code usage} object, when it has both counts. */
    static Optional<TokenUsage> usage(JsonNode usage) {
        if (!usage.path("prompt_tokens").canConvertToLong()
                || !usage.path("completion_tokens").canConvertToLong()) {
            return Optional.empty();
        }
        long prompt = usage.path("prompt_tokens").asLong();
        long completion = usage.path("completion_tokens").asLong();
        return prompt < 0 || completion < 0 ? Optional.empty() : Optional.of(new TokenUsage(prompt, completion));
    }

    /** The request body: the caller's passthrough fields with this attempt's model and stream flags. */
    static byte[] openAiBody(String vendorFields, String vendorModel, boolean stream) {
        StringBuilder body = new StringBuilder(vendorFields.length() + 96);
        body.append("{\"model\":");
        try {
            body.append(MAPPER.writeValueAsString(vendorModel));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a model name", e);
        }
        body.append(",\"stream\":").append(stream);
        if (stream) {
            // Always ask for usage: the audit needs the counts even when the caller did not ask.
            body.append(",\"stream_options\":{\"include_usage\":true}");
        }
        String rest = vendorFields.substring(1).strip();
        body.append(rest.equals("}") ? "}" : "," + rest);
        return body.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
