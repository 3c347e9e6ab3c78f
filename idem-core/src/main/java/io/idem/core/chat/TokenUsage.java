package io.idem.core.chat;

/**
 * Tokens a vendor counted, or, for a broken stream or a vendor that counted nothing, the tokens we
 * estimated ({@code estimated}: never to be passed off as the vendor's count).
 *
 * @param cachedTokens of the prompt, served from the vendor's cache ({@code
 *     prompt_tokens_details.cached_tokens}); 0 when not reported
 * @param reasoningTokens of the completion, spent on reasoning ({@code
 *     completion_tokens_details.reasoning_tokens}); 0 when not reported
 * @param estimated Idem's estimate (prompt from its length, completion from what was seen), not the
 *     vendor's count
 */
public record TokenUsage(
        long promptTokens, long completionTokens, long cachedTokens, long reasoningTokens, boolean estimated) {
    public static final TokenUsage NONE = new TokenUsage(0, 0);

    public TokenUsage {
        if (promptTokens < 0 || completionTokens < 0 || cachedTokens < 0 || reasoningTokens < 0) {
            throw new IllegalArgumentException("token counts must not be negative, were " + promptTokens + "/"
                    + completionTokens + "/" + cachedTokens + "/" + reasoningTokens);
        }
    }

    /** A vendor's count with its details. */
    public TokenUsage(long promptTokens, long completionTokens, long cachedTokens, long reasoningTokens) {
        this(promptTokens, completionTokens, cachedTokens, reasoningTokens, false);
    }

    /** A vendor's count. */
    public TokenUsage(long promptTokens, long completionTokens) {
        this(promptTokens, completionTokens, 0, 0, false);
    }

    /** Idem's estimate, where the vendor gave no count. */
    public static TokenUsage estimate(long promptTokens, long completionTokens) {
        return new TokenUsage(promptTokens, completionTokens, 0, 0, true);
    }

    public long totalTokens() {
        return promptTokens + completionTokens;
    }
}
