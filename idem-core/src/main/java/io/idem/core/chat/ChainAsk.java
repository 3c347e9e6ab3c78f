package io.idem.core.chat;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The chain as a request spelled it: {@code models}, or {@code model} with {@code
 * fallback_models}, and the chain-wide {@code redundancy}.
 */
public record ChainAsk(
        Optional<String> model,
        Optional<List<ChainEntry>> models,
        Optional<List<ChainEntry>> fallbackModels,
        ChainSettings redundancy) {
    public ChainAsk {
        Objects.requireNonNull(model, "model");
        models = models.map(List::copyOf);
        fallbackModels = fallbackModels.map(List::copyOf);
        Objects.requireNonNull(redundancy, "redundancy");
    }

    /** Just {@code model}, nothing else. */
    public static ChainAsk single(String model) {
        return new ChainAsk(Optional.of(model), Optional.empty(), Optional.empty(), ChainSettings.NONE);
    }
}
