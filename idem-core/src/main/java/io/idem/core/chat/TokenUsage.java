package io.idem.core.chat;

/** Tokens a vendor counted (or, for a broken stream, the tokens we saw). */
public record TokenUsage(long promptTokens, long completionTokens) {
    public static final TokenUsage NONE = new TokenUsage(0, 0);

    public TokenUsage {
        if (promptTokens < 0 || completionTokens < 0) {
            throw new IllegalArgumentException(
                    "token counts must not be negative, were " + promptTokens + "/" + completionTokens);
        }
    }

    public long totalTokens() {
        return promptTokens + completionTokens;
    }
}
