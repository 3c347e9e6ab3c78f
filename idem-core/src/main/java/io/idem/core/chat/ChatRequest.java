package io.idem.core.chat;

import java.util.List;
import java.util.Objects;

/**
 * What the caller asked every model of a chain, independent of which model serves it.
 *
 * @param messages the conversation as text, for adapters that do not speak OpenAI's protocol
 * @param vendorFields a JSON object (text) of the caller's OpenAI request fields that pass through
 *     unchanged to an OpenAI-compatible vendor ({@code messages}, {@code temperature}, …); never
 *     holds {@code model}, {@code stream} or {@code stream_options}, which each attempt sets itself
 * @param maxTokens the caller's {@code max_tokens} (or {@code max_completion_tokens}), 0 if none
 */
public record ChatRequest(List<ChatMessage> messages, String vendorFields, int maxTokens) {
    public ChatRequest {
        messages = List.copyOf(messages);
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a chat request needs at least one message");
        }
        Objects.requireNonNull(vendorFields, "vendorFields");
        if (!vendorFields.startsWith("{") || !vendorFields.endsWith("}")) {
            throw new IllegalArgumentException("vendorFields must be a JSON object");
        }
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens must not be negative, was " + maxTokens);
        }
    }

    /** The text of the last user message (what a cache of frequent prompts is keyed by), or "". */
    public String lastUserText() {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("user")) {
                return messages.get(i).content();
            }
        }
        return "";
    }
}
