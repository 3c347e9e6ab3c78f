package io.idem.embedded;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A chat call: a chain of up to three models (the first is the primary, the others fail over in
 * order, before the first token only) and the conversation. It is read exactly as a {@code POST
 * /v1/chat/completions} body with {@code model}, {@code fallback_models} and {@code messages} is read.
 * Build one with {@link #builder(String)}. Immutable and thread-safe.
 *
 * @param models the chain, primary first (1..3 Idem chat model names)
 * @param messages the conversation, oldest first
 * @param maxTokens the answer's token limit, 0 for the model's own
 * @param simulate fault injection by model name ({@code timeout}, {@code http_503}, …): fake models only
 */
public record ChatRequest(List<String> models, List<Message> messages, int maxTokens, Map<String, String> simulate) {
    public ChatRequest {
        models = List.copyOf(models);
        messages = List.copyOf(messages);
        simulate = Map.copyOf(simulate);
        if (models.isEmpty()) {
            throw new IllegalArgumentException("a chat request names at least one model");
        }
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a chat request needs at least one message");
        }
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens must not be negative, was " + maxTokens);
        }
    }

    /** One message: {@code role} is {@code system}, {@code user} or {@code assistant}. Immutable. */
    public record Message(String role, String content) {
        public Message {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(content, "content");
        }
    }

    /** A builder whose chain starts with {@code model}. */
    public static Builder builder(String model) {
        return new Builder(model);
    }

    /** Collects a chat call. Not thread-safe: one builder per call. */
    public static final class Builder {
        private final List<String> models = new ArrayList<>();
        private final List<Message> messages = new ArrayList<>();
        private final Map<String, String> simulate = new LinkedHashMap<>();
        private int maxTokens;

        private Builder(String model) {
            models.add(Objects.requireNonNull(model, "model"));
        }

        /** The next model of the chain, tried when the ones before it fail before answering. */
        public Builder fallback(String model) {
            models.add(Objects.requireNonNull(model, "model"));
            return this;
        }

        public Builder system(String content) {
            messages.add(new Message("system", content));
            return this;
        }

        public Builder user(String content) {
            messages.add(new Message("user", content));
            return this;
        }

        public Builder assistant(String content) {
            messages.add(new Message("assistant", content));
            return this;
        }

        public Builder maxTokens(int maxTokens) {
            this.maxTokens = maxTokens;
            return this;
        }

        /** Fault injection for {@code model} (fake models only). */
        public Builder simulate(String model, String mode) {
            simulate.put(Objects.requireNonNull(model, "model"), Objects.requireNonNull(mode, "mode"));
            return this;
        }

        public ChatRequest build() {
            return new ChatRequest(models, messages, maxTokens, simulate);
        }
    }
}
