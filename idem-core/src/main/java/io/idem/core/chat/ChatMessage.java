package io.idem.core.chat;

import java.util.Objects;

/**
 * One message of a conversation, as text. Multi-part contents are flattened to their text parts;
 * adapters that speak OpenAI's protocol forward the caller's original messages instead (see {@link
 * ChatRequest#vendorFields()}).
 */
public record ChatMessage(String role, String content) {
    public ChatMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
    }
}
