package io.idem.providers.chat;

import io.idem.core.pricing.PricingModel;
import io.idem.providers.openai.OpenAiImagesVendor;
import io.idem.providers.vendor.VendorCapabilities;
import io.idem.providers.vendor.VendorDefaults;
import io.idem.providers.vendor.VendorDescriptor;
import java.util.Optional;

/** OpenAI's chat completions and anything compatible ({@link OpenAiChatAdapter}): chat only. */
public final class OpenAiChatVendor {
    public static final String NAME = "openai_chat";
    /** The same OpenAI account as its images: the same variables. */
    public static final String KEY_VARIABLE = OpenAiImagesVendor.KEY_VARIABLE;

    public static final String BASE_URL_VARIABLE = OpenAiImagesVendor.BASE_URL_VARIABLE;

    public static final VendorDescriptor DESCRIPTOR = VendorDescriptor.chat(
            NAME,
            new VendorDefaults(
                    OpenAiChatAdapter.DEFAULT_BASE_URL,
                    Optional.of(BASE_URL_VARIABLE),
                    Optional.of(KEY_VARIABLE),
                    Optional.empty(),
                    false),
            VendorCapabilities.remoteChat(),
            PricingModel.PerToken.FREE,
            w -> new OpenAiChatAdapter(w.settings(), w.client(), w.environment(), w.redactor()));

    private OpenAiChatVendor() {}
}
