package io.idem.core.chat;

/**
 * Tokens a vendor counted (or, for a broken stream or a vendor that counted nothing, the tokens we
 * estimated).
 *
 * @param cachedTokens of the prompt, served from the vendor's cache ({@code
 *     prompt_tokens_details.cached_tokens}); 0 when not reported
 * @param reasoningTokens of the completion, spent on reasoning ({@code
 *     completion_tokens_details.reasoning_tokens}); 0 when not reported
 */
public record TokenUsage(long promptTokens, long completionTokens, long cachedTokens, long reasoningTokens) {
    public static final TokenUsage NONE = new TokenUsage(0, 0);

    public TokenUsage {
        if (promptTokens < 0 || completionTokens < 0 || cachedTokens < 0 || reasoningTokens < 0) {
            throw new IllegalArgumentException("token counts must not be negative, were " + promptTokens + "/"
                    + completionTokens + "/" + cachedTokens + "/" + reasoningTokens);
        }
    }

    public TokenUsage(long promptTokens, long completionTokens) {
        this(promptTokens, completionTokens, 0, 0);
    }

    public long totalTokens() {
        return promptTokens + completionTokens;
    }
}
