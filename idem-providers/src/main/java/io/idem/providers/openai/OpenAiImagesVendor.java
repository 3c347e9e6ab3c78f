package io.idem.providers.openai;

import io.idem.core.domain.JobKind;
import io.idem.core.pricing.PricingModel;
import io.idem.providers.vendor.VendorCapabilities;
import io.idem.providers.vendor.VendorDefaults;
import io.idem.providers.vendor.VendorDescriptor;
import java.util.Optional;
import java.util.Set;

/** OpenAI's images API and anything compatible ({@link OpenAiImagesAdapter}): synchronous, no lookup. */
public final class OpenAiImagesVendor {
    public static final String NAME = "openai_images";
    public static final String KEY_VARIABLE = "OPENAI_API_KEY";

    /** Read by OpenAI's own tools; when set it replaces the default base URL. */
    public static final String BASE_URL_VARIABLE = "OPENAI_BASE_URL";

    public static final String DEFAULT_MODEL = "gpt-image-1";

    public static final VendorDescriptor DESCRIPTOR = VendorDescriptor.jobs(
            NAME,
            new VendorDefaults(
                    OpenAiImagesAdapter.DEFAULT_BASE_URL,
                    Optional.of(BASE_URL_VARIABLE),
                    Optional.of(KEY_VARIABLE),
                    Optional.of(DEFAULT_MODEL),
                    false),
            new VendorCapabilities(Set.of(JobKind.IMAGE), false, false, false, false, false, true, false)
                    .forwarding(io.idem.core.domain.ImageParams.ALL),
            PricingModel.PerImage.FREE,
            OpenAiImagesAdapter::new);

    private OpenAiImagesVendor() {}
}
