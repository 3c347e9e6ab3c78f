package io.idem.core.chat;

import io.idem.core.pricing.PricingModel;
import io.idem.core.pricing.Usage;
import java.math.BigDecimal;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A chat model Idem offers under {@code name}, served by {@code provider} as {@code vendorModel},
 * with its prices (what one million tokens cost) for the audit and the budgets.
 *
 * @param prefill the model continues a trailing assistant message instead of answering afresh (so a
 *     stream it takes over mid-answer can carry on where the last model stopped)
 * @param contextWindow how many tokens the model takes, prompt and answer together, when configured
 *     ({@code context_window}); a failover for {@code context_length} skips a model known to be too small
 */
public record ChatModel(
        String name,
        String provider,
        String vendorModel,
        BigDecimal inputUsdPer1M,
        BigDecimal outputUsdPer1M,
        boolean prefill,
        OptionalLong contextWindow) {

    /** A model whose context window is not configured. */
    public ChatModel(
            String name,
            String provider,
            String vendorModel,
            BigDecimal inputUsdPer1M,
            BigDecimal outputUsdPer1M,
            boolean prefill) {
        this(name, provider, vendorModel, inputUsdPer1M, outputUsdPer1M, prefill, OptionalLong.empty());
    }

    /** A model that answers afresh whatever the history ends with. */
    public ChatModel(
            String name, String provider, String vendorModel, BigDecimal inputUsdPer1M, BigDecimal outputUsdPer1M) {
        this(name, provider, vendorModel, inputUsdPer1M, outputUsdPer1M, false);
    }

    public ChatModel {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(vendorModel, "vendorModel");
        if (name.isBlank() || name.length() > 128) {
            throw new IllegalArgumentException("a chat model name is 1..128 characters, was '" + name + "'");
        }
        if (inputUsdPer1M.signum() < 0 || outputUsdPer1M.signum() < 0) {
            throw new IllegalArgumentException("chat model '" + name + "': prices must not be negative");
        }
        Objects.requireNonNull(contextWindow, "contextWindow");
        if (contextWindow.isPresent() && contextWindow.getAsLong() <= 0) {
            throw new IllegalArgumentException("chat model '" + name + "': context_window must be positive");
        }
    }

    /** The model's prices as a pricing model (per million input and output tokens). */
    public PricingModel.PerToken pricing() {
        return new PricingModel.PerToken(inputUsdPer1M, outputUsdPer1M);
    }

    /** What {@code usage} costs on this model, in USD (9 decimal places). */
    public BigDecimal cost(TokenUsage usage) {
        return pricing().cost(Usage.tokens(usage.promptTokens(), usage.completionTokens()));
    }
}
