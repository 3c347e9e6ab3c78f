package io.idem.core.chat;

import java.util.Objects;
import java.util.Optional;

/**
 * A finished answer.
 *
 * @param finishReason the vendor's reason ({@code stop}, {@code length}, …)
 * @param usage the vendor's token counts, when it reported them
 * @param degradationNotice present when a degraded tier (the static provider) answered: the answer
 *     is a fallback, and this says why
 * @param passthrough for vendors that speak OpenAI's protocol, a JSON object (text) of what the
 *     answer said beyond its text, to forward unchanged: {@code {"message": {tool_calls, refusal,
 *     …}, "logprobs": …, "system_fingerprint": …}}; "" when nothing
 */
public record ChatCompletion(
        String text,
        String finishReason,
        Optional<TokenUsage> usage,
        Optional<String> requestId,
        Optional<String> degradationNotice,
        String passthrough) {
    public ChatCompletion {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(finishReason, "finishReason");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(degradationNotice, "degradationNotice");
        Objects.requireNonNull(passthrough, "passthrough");
    }

    /** An answer with nothing to pass through beyond its text. */
    public ChatCompletion(
            String text,
            String finishReason,
            Optional<TokenUsage> usage,
            Optional<String> requestId,
            Optional<String> degradationNotice) {
        this(text, finishReason, usage, requestId, degradationNotice, "");
    }

    public boolean isFallback() {
        return degradationNotice.isPresent();
    }
}
