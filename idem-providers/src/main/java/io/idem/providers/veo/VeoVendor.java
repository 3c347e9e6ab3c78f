package io.idem.providers.veo;

import io.idem.core.domain.JobKind;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.VideoCapabilities;
import io.idem.providers.vendor.VendorCapabilities;
import io.idem.providers.vendor.VendorDefaults;
import io.idem.providers.vendor.VendorDescriptor;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.Set;

/**
 * Google Veo through the Gemini API's long-running operations ({@link VeoAdapter}): followed by the
 * operation's name, which only the submit's answer carries, so a lost answer cannot be looked up;
 * no cancel. The key goes as {@code x-goog-api-key}.
 */
public final class VeoVendor {
    public static final String NAME = "veo";
    public static final String KEY_VARIABLE = "GEMINI_API_KEY";

    /** Veo 3.x on the Gemini API: 4, 6 or 8 s, 720p or 1080p, landscape or portrait, first/last frame, sound. */
    static final VideoCapabilities CLIPS =
            new VideoCapabilities(Set.of(4, 6, 8), 8, Set.of("720p", "1080p"), Set.of("16:9", "9:16"), true, true);

    /** No default model: a Veo model id ({@code veo-3.1-generate-001}, …) must be configured. */
    public static final VendorDescriptor DESCRIPTOR = VendorDescriptor.jobs(
            NAME,
            VendorDefaults.remote(VeoAdapter.DEFAULT_BASE_URL, KEY_VARIABLE, Optional.empty()),
            new VendorCapabilities(Set.of(JobKind.VIDEO), true, false, false, false, false, true, false, CLIPS),
            new PricingModel.PerOutputSecond(BigDecimal.ZERO),
            VeoAdapter::new);

    private VeoVendor() {}
}
