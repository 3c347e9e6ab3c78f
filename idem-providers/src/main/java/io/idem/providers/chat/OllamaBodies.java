package io.idem.providers.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.chat.ChatCall;
import io.idem.core.chat.ChatMessage;
import java.io.IOException;
import java.util.Map;

/**
 * Maps OpenAI's chat request onto Ollama's {@code /api/chat} and Ollama's tool calls back: messages
 * keep their {@code tool_calls} (arguments as objects) and {@code role: tool} results, image parts
 * with {@code data:} URLs become {@code images} (base64), {@code tools} pass as they are, {@code
 * response_format} becomes {@code format} ({@code json}, or the JSON schema), sampling fields and
 * penalties become {@code options}.
 */
final class OllamaBodies {
    private static final Map<String, String> OPTIONS = Map.of(
            "temperature", "temperature",
            "top_p", "top_p",
            "seed", "seed",
            "stop", "stop",
            "presence_penalty", "presence_penalty",
            "frequency_penalty", "frequency_penalty");

    private OllamaBodies() {}

    static byte[] body(ChatCall call, boolean stream) {
        JsonNode fields = ChatJson.parse(call.request().vendorFields()).orElse(ChatJson.MISSING);
        ObjectNode body = ChatJson.MAPPER.createObjectNode();
        body.put("model", call.vendorModel()).put("stream", stream);
        body.set("messages", messages(call, fields.path("messages")));
        if (fields.path("tools").isArray()) {
            body.set("tools", fields.get("tools"));
        }
        JsonNode format = format(fields.path("response_format"));
        if (format != null) {
            body.set("format", format);
        }
        ObjectNode options = ChatJson.MAPPER.createObjectNode();
        OPTIONS.forEach((name, option) -> {
            if (fields.has(name) && !fields.get(name).isNull()) {
                options.set(option, fields.get(name));
            }
        });
        if (call.request().maxTokens() > 0) {
            options.put("num_predict", call.request().maxTokens());
        }
        if (!options.isEmpty()) {
            body.set("options", options);
        }
        try {
            return ChatJson.MAPPER.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write an Ollama request", e);
        }
    }

    /** Ollama's {@code tool_calls} of one message in OpenAI's shape (arguments as JSON text), numbered from {@code first}. */
    static ArrayNode openAiToolCalls(JsonNode toolCalls, int first, boolean withIndex) {
        ArrayNode calls = ChatJson.MAPPER.createArrayNode();
        int i = first;
        for (JsonNode call : toolCalls) {
            ObjectNode mapped = calls.addObject();
            if (withIndex) {
                mapped.put("index", i);
            }
            mapped.put("id", call.path("id").asText("call_" + i)).put("type", "function");
            JsonNode arguments = call.path("function").path("arguments");
            mapped.putObject("function")
                    .put("name", call.path("function").path("name").asText(""))
                    .put("arguments", arguments.isTextual() ? arguments.asText() : arguments.toString());
            i++;
        }
        return calls;
    }

    private static ArrayNode messages(ChatCall call, JsonNode original) {
        ArrayNode messages = ChatJson.MAPPER.createArrayNode();
        if (!original.isArray() || original.size() != call.request().messages().size()) {
            for (ChatMessage message : call.request().messages()) {
                messages.addObject().put("role", message.role()).put("content", message.content());
            }
            return messages;
        }
        int i = 0;
        for (JsonNode message : original) {
            ObjectNode mapped = messages.addObject()
                    .put("role", message.path("role").asText())
                    .put("content", call.request().messages().get(i++).content());
            ArrayNode images = ChatJson.MAPPER.createArrayNode();
            message.path("content").forEach(part -> {
                String url = part.path("image_url").path("url").asText("");
                int comma = url.indexOf(',');
                if (url.startsWith("data:")
                        && url.substring(0, Math.max(comma, 0)).endsWith(";base64")) {
                    images.add(url.substring(comma + 1));
                }
            });
            if (!images.isEmpty()) {
                mapped.set("images", images);
            }
            if (message.path("tool_calls").isArray()) {
                mapped.set("tool_calls", ollamaToolCalls(message.get("tool_calls")));
            }
        }
        return messages;
    }

    private static ArrayNode ollamaToolCalls(JsonNode toolCalls) {
        ArrayNode calls = ChatJson.MAPPER.createArrayNode();
        for (JsonNode call : toolCalls) {
            JsonNode arguments = call.path("function").path("arguments");
            JsonNode parsed = arguments.isTextual()
                    ? ChatJson.parse(arguments.asText())
                            .map(JsonNode.class::cast)
                            .orElse(ChatJson.MAPPER.createObjectNode())
                    : arguments;
            calls.addObject()
                    .putObject("function")
                    .put("name", call.path("function").path("name").asText(""))
                    .set("arguments", parsed);
        }
        return calls;
    }

    /** {@code response_format} as Ollama's {@code format}, or null when there is none to map. */
    private static JsonNode format(JsonNode responseFormat) {
        return switch (responseFormat.path("type").asText("")) {
            case "json_object" -> ChatJson.MAPPER.getNodeFactory().textNode("json");
            case "json_schema" -> {
                JsonNode schema = responseFormat.path("json_schema").path("schema");
                yield schema.isObject()
                        ? schema
                        : ChatJson.MAPPER.getNodeFactory().textNode("json");
            }
            default -> null;
        };
    }
}
