package io.idem.core.engine;

import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.text.Redactor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The configured providers with their adapters. Every adapter is reached through the registry, and
 * the registry hands out each one behind the node's {@link Redactor}: whatever an adapter answers is
 * scrubbed before the engine sees it. Immutable and thread-safe.
 */
public final class ProviderRegistry {
    /** One provider: its settings and the adapter that speaks its protocol. */
    public record Provider(ProviderSettings settings, ProviderAdapter adapter) {}

    private final Map<String, Provider> providers;

    /** @param redactor what every adapter's answers pass through */
    public ProviderRegistry(Map<String, Provider> providers, Redactor redactor) {
        Map<String, Provider> guarded = new LinkedHashMap<>();
        providers.forEach((name, p) ->
                guarded.put(name, new Provider(p.settings(), new RedactingAdapter(p.adapter(), redactor))));
        this.providers = java.util.Collections.unmodifiableMap(guarded);
    }

    public Optional<Provider> find(String name) {
        return Optional.ofNullable(providers.get(name));
    }

    public Map<String, Provider> all() {
        return providers;
    }
}
