package io.idem.testkit;

import io.idem.core.engine.ProviderRegistry;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.Capabilities;
import io.idem.core.provider.ProviderSettings;
import io.idem.core.spi.ProviderAdapter;
import io.idem.core.text.Redactor;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Test data builder for configured providers: enabled, 0.04 USD an image, no daily budget. */
public final class ProviderBuilder {
    private final String name;
    private final ProviderAdapter adapter;
    private PricingModel pricing = new PricingModel.PerImage(new BigDecimal("0.04"));
    private boolean enabled = true;
    private Optional<BigDecimal> dailyBudgetUsd = Optional.empty();

    private ProviderBuilder(String name, ProviderAdapter adapter) {
        this.name = name;
        this.adapter = adapter;
    }

    public static ProviderBuilder aProvider(String name, ProviderAdapter adapter) {
        return new ProviderBuilder(name, adapter);
    }

    /** The registry the engine reads, with only the shape-based redaction a node always applies. */
    public static ProviderRegistry registryOf(ProviderBuilder... providers) {
        Map<String, ProviderRegistry.Provider> all = new LinkedHashMap<>();
        for (ProviderBuilder p : providers) {
            all.put(p.name, new ProviderRegistry.Provider(p.settings(), p.adapter));
        }
        return new ProviderRegistry(all, Redactor.shapesOnly());
    }

    public ProviderBuilder costPerImage(String usd) {
        pricing = new PricingModel.PerImage(new BigDecimal(usd));
        return this;
    }

    public ProviderBuilder disabled() {
        enabled = false;
        return this;
    }

    public ProviderBuilder dailyBudget(String usd) {
        dailyBudgetUsd = Optional.of(new BigDecimal(usd));
        return this;
    }

    public ProviderSettings settings() {
        return new ProviderSettings(
                name,
                "scripted",
                new ProviderSettings.Endpoint(
                        URI.create("http://127.0.0.1:9"), Optional.empty(), Duration.ofSeconds(1)),
                "vendor-model",
                Map.of(),
                pricing,
                enabled,
                Capabilities.ANY,
                dailyBudgetUsd);
    }
}
