package io.idem.server.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.idem.core.chat.ChatCompletion;
import io.idem.core.chat.ChatModel;
import io.idem.core.chat.StreamPiece;
import io.idem.core.chat.TokenUsage;
import io.idem.server.http.Json;
import java.io.IOException;

/** OpenAI's response shapes: {@code chat.completion} and {@code chat.completion.chunk}. */
final class ChatBodies {
    private ChatBodies() {}

    static ObjectNode completion(
            String id, long created, ChatModel model, ChatCompletion completion, TokenUsage usage, ObjectNode idem) {
        ObjectNode root = head(id, created, model, "chat.completion");
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        JsonNode passthrough = parse(completion.passthrough());
        ObjectNode message = choice.putObject("message")
                .put("role", "assistant")
                .put("content", completion.text())
                .putNull("refusal");
        passthrough.path("message").properties().forEach(f -> message.set(f.getKey(), f.getValue()));
        if (completion.text().isEmpty() && message.has("tool_calls")) {
            message.putNull("content");
        }
        choice.set(
                "logprobs",
                passthrough.path("logprobs").isMissingNode() ? NullNode.getInstance() : passthrough.get("logprobs"));
        choice.put("finish_reason", completion.finishReason());
        if (passthrough.path("system_fingerprint").isTextual()) {
            root.set("system_fingerprint", passthrough.get("system_fingerprint"));
        }
        usage(root.putObject("usage"), usage);
        root.set("idem", idem);
        return root;
    }

    /**
     * A content chunk: {@code text} as the delta's content (left out when empty and the vendor's
     * delta says something else, such as a tool call), with the vendor's passthrough merged in.
     */
    static ObjectNode piece(String id, long created, ChatModel model, StreamPiece.Text piece, boolean usageNull) {
        JsonNode passthrough = parse(piece.passthrough());
        JsonNode vendorDelta = passthrough.path("delta");
        ObjectNode delta = delta();
        if (!piece.text().isEmpty() || vendorDelta.isEmpty()) {
            delta.put("content", piece.text());
        }
        vendorDelta.properties().forEach(f -> delta.set(f.getKey(), f.getValue()));
        ObjectNode chunk = chunk(id, created, model, delta, null, usageNull);
        if (passthrough.has("logprobs")) {
            ((ObjectNode) chunk.path("choices").path(0)).set("logprobs", passthrough.get("logprobs"));
        }
        return chunk;
    }

    /** A passthrough's JSON text as a tree; an empty object for "". */
    static JsonNode parse(String passthrough) {
        if (passthrough.isEmpty()) {
            return Json.MAPPER.createObjectNode();
        }
        try {
            return Json.MAPPER.readTree(passthrough);
        } catch (IOException e) {
            throw new IllegalStateException("an adapter's passthrough is not JSON", e);
        }
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
        node.putObject("prompt_tokens_details").put("cached_tokens", usage.cachedTokens());
        node.putObject("completion_tokens_details").put("reasoning_tokens", usage.reasoningTokens());
    }
}
