package io.idem.providers.fake;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A chat completion request as the fake vendor reads it (OpenAI's shape), and the deterministic
 * answer it gives: {@code Hello from <model>. You said: <last user message>}, one token per word.
 * A conversation that ends with an assistant message is a prefill: the answer continues it, leaving
 * out as many of its own first words as the prefill has ({@code prefilledWords}).
 */
record ChatAsk(
        String model,
        String lastUserText,
        long promptTokens,
        boolean stream,
        boolean includeUsage,
        int maxTokens,
        int prefilledWords) {
    static final int MAX_ECHO = 200;

    sealed interface Read {}

    record Valid(ChatAsk ask) implements Read {}

    record Invalid(String code, String message) implements Read {}

    static Read read(byte[] body) {
        JsonNode root;
        try {
            root = VendorBodies.JSON.readTree(body);
        } catch (IOException e) {
            return new Invalid("invalid_json", "the body is not valid JSON");
        }
        if (root == null || !root.isObject()) {
            return new Invalid("invalid_json", "the body must be a JSON object");
        }
        JsonNode model = root.path("model");
        if (!model.isTextual() || model.asText().isBlank()) {
            return new Invalid("missing_model", "model is required");
        }
        JsonNode messages = root.path("messages");
        if (!messages.isArray() || messages.isEmpty()) {
            return new Invalid("missing_messages", "messages must be a non-empty array");
        }
        String last = "";
        long words = 0;
        int prefilled = 0;
        for (JsonNode message : messages) {
            String text = text(message.path("content"));
            words += wordCount(text);
            String role = message.path("role").asText();
            if (role.equals("user") || role.equals("tool")) {
                last = text;
            }
            prefilled = role.equals("assistant") ? (int) wordCount(text) : 0;
        }
        JsonNode max = root.path("max_tokens");
        int maxTokens = max.canConvertToInt() && max.asInt() > 0 ? max.asInt() : 0;
        return new Valid(new ChatAsk(
                model.asText(),
                last,
                Math.max(1, words),
                root.path("stream").asBoolean(false),
                root.path("stream_options").path("include_usage").asBoolean(false),
                maxTokens,
                prefilled));
    }

    private static String text(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder out = new StringBuilder();
        if (content.isArray()) {
            content.forEach(part -> out.append(part.path("text").asText("")));
        }
        return out.toString();
    }

    private static long wordCount(String text) {
        String trimmed = text.strip();
        return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
    }

    /** The answer's tokens (words, each after the first with its leading space), cut at {@code max_tokens}. */
    List<String> answerTokens() {
        List<String> all = allTokens();
        return maxTokens > 0 && maxTokens < all.size() ? all.subList(0, maxTokens) : all;
    }

    /** {@code length} when {@code max_tokens} cut the answer short, else {@code stop}. */
    String finishReason() {
        return maxTokens > 0 && maxTokens < allTokens().size() ? "length" : "stop";
    }

    private List<String> allTokens() {
        String echo = lastUserText.strip().replaceAll("\\s+", " ");
        if (echo.length() > MAX_ECHO) {
            echo = echo.substring(0, MAX_ECHO);
        }
        String[] words = ("Hello from " + model + ". You said: " + (echo.isEmpty() ? "nothing" : echo)).split(" ");
        List<String> tokens = new ArrayList<>();
        for (int i = Math.min(prefilledWords, words.length - 1); i < words.length; i++) {
            tokens.add(i == 0 ? words[i] : " " + words[i]);
        }
        return tokens;
    }
}
