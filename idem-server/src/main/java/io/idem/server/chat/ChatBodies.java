package io.idem.server.chat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.chat.ChatCompletion;
import io.idem.core.chat.ChatModel;
import io.idem.core.chat.TokenUsage;
import io.idem.server.http.Json;

/** OpenAI's response shapes: {@code chat.completion} and {@code chat.completion.chunk}. */
final class ChatBodies {
    private ChatBodies() {}

    static ObjectNode completion(
            String id, long created, ChatModel model, ChatCompletion completion, TokenUsage usage, ObjectNode idem) {
        ObjectNode root = head(id, created, model, "chat.completion");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        choice.putObject("message")
                .put("role", "assistant")
                .put("content", completion.text())
                .putNull("refusal");
        choice.putNull("logprobs");
        choice.put("finish_reason", completion.finishReason());
        usage(root.putObject("usage"), usage);
        root.set("idem", idem);
        return root;
    }

    /** A chunk with one choice: a delta of {@code content} (or the role, or nothing at the end). */
    static ObjectNode chunk(
            String id, long created, ChatModel model, ObjectNode delta, String finishReason, boolean usageNull) {
        ObjectNode root = head(id, created, model, "chat.completion.chunk");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        if (usageNull) {
            root.putNull("usage");
        }
        return root;
    }

    /** The usage chunk of {@code stream_options.include_usage}: no choices, the whole call's counts. */
    static ObjectNode usageChunk(String id, long created, ChatModel model, TokenUsage usage) {
        ObjectNode root = head(id, created, model, "chat.completion.chunk");
        root.putArray("choices");
        usage(root.putObject("usage"), usage);
        return root;
    }

    static ObjectNode delta() {
        return Json.MAPPER.createObjectNode();
    }

    private static ObjectNode head(String id, long created, ChatModel model, String object) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("id", id).put("object", object).put("created", created).put("model", model.name());
        return root;
    }

    private static void usage(ObjectNode node, TokenUsage usage) {
        node.put("prompt_tokens", usage.promptTokens())
                .put("completion_tokens", usage.completionTokens())
                .put("total_tokens", usage.totalTokens());
    }
}
