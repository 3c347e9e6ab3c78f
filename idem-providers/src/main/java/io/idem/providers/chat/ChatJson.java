package io.idem.providers.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.chat.TokenUsage;
import io.idem.providers.http.PooledJson;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The chat adapters' JSON mapper and tolerant readers: a vendor may send anything. */
final class ChatJson {
    static final ObjectMapper MAPPER = PooledJson.mapper();
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
        long cached = Math.max(
                0, usage.path("prompt_tokens_details").path("cached_tokens").asLong(0));
        long reasoning = Math.max(
                0,
                usage.path("completion_tokens_details").path("reasoning_tokens").asLong(0));
        return prompt < 0 || completion < 0
                ? Optional.empty()
                : Optional.of(new TokenUsage(prompt, completion, cached, reasoning));
    }

    /** The fields of {@code node} but {@code skipped} and those that are null (empty for a non-object). */
    static ObjectNode kept(JsonNode node, Set<String> skipped) {
        ObjectNode kept = MAPPER.createObjectNode();
        if (node.isObject()) {
            node.properties().forEach(field -> {
                if (!skipped.contains(field.getKey()) && !field.getValue().isNull()) {
                    kept.set(field.getKey(), field.getValue());
                }
            });
        }
        return kept;
    }

    /** An object of the non-empty passthrough parts, by name, as JSON text; "" when all are empty. */
    static String bundle(Map<String, JsonNode> parts) {
        ObjectNode bundle = MAPPER.createObjectNode();
        parts.forEach((name, part) -> {
            if (part != null && !part.isMissingNode() && !part.isNull() && !(part.isObject() && part.isEmpty())) {
                bundle.set(name, part);
            }
        });
        return bundle.isEmpty() ? "" : bundle.toString();
    }

    /** The request body: the caller's passthrough fields with this attempt's model and stream flags. */
    /**
     * The body of {@code call} for an OpenAI-compatible vendor: its fields as the caller sent them,
     * and an answer begun by another model, if any, as a trailing assistant message to continue.
     */
    static byte[] openAiBody(io.idem.core.chat.ChatCall call, boolean stream) {
        String fields = call.request().vendorFields();
        if (call.assistantPrefix().isPresent()) {
            fields = withAssistantPrefix(fields, call.assistantPrefix().get());
        }
        return openAiBody(fields, call.vendorModel(), stream);
    }

    /** {@code vendorFields} with {@code prefix} appended to its messages as the assistant's. */
    static String withAssistantPrefix(String vendorFields, String prefix) {
        try {
            com.fasterxml.jackson.databind.node.ObjectNode fields =
                    (com.fasterxml.jackson.databind.node.ObjectNode) MAPPER.readTree(vendorFields);
            fields.withArray("messages").addObject().put("role", "assistant").put("content", prefix);
            return MAPPER.writeValueAsString(fields);
        } catch (IOException | ClassCastException e) {
            throw new IllegalStateException("cannot add a prefill to the request's fields", e);
        }
    }

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
