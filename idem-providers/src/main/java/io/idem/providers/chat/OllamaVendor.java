package io.idem.providers.chat;

import io.idem.core.pricing.PricingModel;
import io.idem.providers.vendor.VendorCapabilities;
import io.idem.providers.vendor.VendorDefaults;
import io.idem.providers.vendor.VendorDescriptor;
import java.util.Optional;

/** A local or remote Ollama ({@link OllamaChatAdapter}): chat only, no key by default. */
public final class OllamaVendor {
    public static final String NAME = "ollama";

    public static final VendorDescriptor DESCRIPTOR = VendorDescriptor.chat(
            NAME,
            new VendorDefaults(
                    OllamaChatAdapter.DEFAULT_BASE_URL, Optional.empty(), Optional.empty(), Optional.empty(), false),
            VendorCapabilities.remoteChat(),
            PricingModel.PerToken.FREE,
            w -> new OllamaChatAdapter(w.settings(), w.client(), w.vendorModels(), w.environment(), w.redactor()));

    private OllamaVendor() {}
}
