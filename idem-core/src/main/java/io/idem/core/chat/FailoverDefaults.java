package io.idem.core.chat;

import java.util.List;
import java.util.Objects;

/**
 * An API key's default chain: used when a request names neither {@code models} nor {@code
 * fallback_models}. Validated on write: 1..3 distinct models.
 */
public record FailoverDefaults(List<ChainEntry> models, ChainSettings settings) {
    public FailoverDefaults {
        models = List.copyOf(models);
        Objects.requireNonNull(settings, "settings");
        if (models.isEmpty() || models.size() > ChainLimits.MAX_MODELS) {
            throw new InvalidChainException(
                    "failover_defaults.models",
                    "invalid_failover_defaults",
                    "failover_defaults.models must name 1.." + ChainLimits.MAX_MODELS + " models, was "
                            + models.size());
        }
        if (models.stream().map(ChainEntry::model).distinct().count() != models.size()) {
            throw new InvalidChainException(
                    "failover_defaults.models",
                    "invalid_failover_defaults",
                    "failover_defaults.models must not repeat a model");
        }
    }
}
