package io.idem.providers.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.chat.ChatCall;
import io.idem.core.chat.ChatMessage;
import java.io.IOException;
import java.util.Map;
import java.util.Set;

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

    /** Fields mapped onto Ollama's request (besides {@link #OPTIONS}). */
    private static final java.util.Set<String> MAPPED =
            java.util.Set.of("messages", "tools", "response_format", "max_tokens", "max_completion_tokens");

    /**
     * Fields that say nothing about the answer, which Ollama can go without: end-user and caching
     * hints, storage flags, {@code n} (always 1 here) and the defaults of the rest.
     */
    private static final java.util.Set<String> ANSWER_NEUTRAL =
            java.util.Set.of("user", "metadata", "store", "service_tier", "safety_identifier", "prompt_cache_key", "n");

    private OllamaBodies() {}

    /**
     * The first request field Ollama cannot honour: anything that is neither mapped nor neutral
     * ({@code logprobs: true}, {@code logit_bias}, a {@code tool_choice} other than {@code auto} or
     * {@code none}, {@code reasoning_effort}, audio, an unknown field), a {@code response_format} of
     * another type, an image given by an {@code http(s)} URL (Ollama fetches nothing).
     */
    static java.util.Optional<String> unhonoured(io.idem.core.chat.ChatRequest request) {
        JsonNode fields = ChatJson.parse(request.vendorFields()).orElse(ChatJson.MISSING);
        for (var it = fields.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            JsonNode value = fields.get(name);
            boolean honoured = MAPPED.contains(name)
                    || OPTIONS.containsKey(name)
                    || ANSWER_NEUTRAL.contains(name)
                    || value.isNull()
                    || isDefault(name, value);
            if (!honoured) {
                return java.util.Optional.of(name);
            }
        }
        String formatType = fields.path("response_format").path("type").asText("text");
        if (!java.util.Set.of("text", "json_object", "json_schema").contains(formatType)) {
            return java.util.Optional.of("response_format.type");
        }
        return imageByUrl(fields.path("messages"));
    }

    /** A value that asks for what Ollama does anyway. */
    private static boolean isDefault(String name, JsonNode value) {
        return switch (name) {
            case "logprobs" -> value.isBoolean() && !value.asBoolean();
            case "parallel_tool_calls" -> value.isBoolean() && value.asBoolean();
            case "tool_choice" -> value.isTextual() && Set.of("auto", "none").contains(value.asText());
            default -> false;
        };
    }

    private static java.util.Optional<String> imageByUrl(JsonNode messages) {
        for (int m = 0; m < messages.size(); m++) {
            JsonNode content = messages.get(m).path("content");
            for (int p = 0; content.isArray() && p < content.size(); p++) {
                JsonNode part = content.get(p);
                if (part.has("image_url")
                        && !part.path("image_url").path("url").asText("").startsWith("data:")) {
                    return java.util.Optional.of("messages[" + m + "].content[" + p + "].image_url");
                }
            }
        }
        return java.util.Optional.empty();
    }

    static byte[] body(ChatCall call, boolean stream) {
        JsonNode fields = ChatJson.parse(call.request().vendorFields()).orElse(ChatJson.MISSING);
        ObjectNode body = ChatJson.MAPPER.createObjectNode();
        body.put("model", call.vendorModel()).put("stream", stream);
        ArrayNode messages = messages(call, fields.path("messages"));
        call.assistantPrefix()
                .ifPresent(
                        prefix -> messages.addObject().put("role", "assistant").put("content", prefix));
        body.set("messages", messages);
        if (fields.path("tools").isArray()
                && !fields.path("tool_choice").asText("auto").equals("none")) {
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
