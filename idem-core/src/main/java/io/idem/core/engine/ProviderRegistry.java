package io.idem.core.engine;

import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.ProviderAdapter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The configured providers with their adapters. Immutable and thread-safe. */
public final class ProviderRegistry {
    /** One provider: its settings and the adapter that speaks its protocol. */
    public record Provider(ProviderSettings settings, ProviderAdapter adapter) {}

    private final Map<String, Provider> providers;

    public ProviderRegistry(Map<String, Provider> providers) {
        this.providers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(providers));
    }

    public Optional<Provider> find(String name) {
        return Optional.ofNullable(providers.get(name));
    }

    public Map<String, Provider> all() {
        return providers;
    }
}
