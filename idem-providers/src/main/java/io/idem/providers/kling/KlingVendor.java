package io.idem.providers.kling;

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
 * Kling's video API ({@link KlingAdapter}): clips under our own {@code external_task_id}, found
 * again by it after a lost answer; no cancel. Signed tokens from an access key and a secret key.
 */
public final class KlingVendor {
    public static final String NAME = "kling";
    public static final String ACCESS_KEY_VARIABLE = "KLING_ACCESS_KEY";
    public static final String SECRET_KEY_VARIABLE = "KLING_SECRET_KEY";
    public static final String DEFAULT_MODEL = "kling-v2-6";

    /** The clips the API makes: 5 or 10 s, std (720p) or pro (1080p), three ratios, first/last frame, sound. */
    static final VideoCapabilities CLIPS = new VideoCapabilities(
            Set.of(5, 10), 10, Set.of("720p", "1080p"), Set.of("16:9", "9:16", "1:1"), true, true);

    public static final VendorDescriptor DESCRIPTOR = VendorDescriptor.jobs(
            NAME,
            VendorDefaults.keyPair(
                    KlingAdapter.DEFAULT_BASE_URL,
                    ACCESS_KEY_VARIABLE,
                    SECRET_KEY_VARIABLE,
                    Optional.of(DEFAULT_MODEL)),
            new VendorCapabilities(Set.of(JobKind.VIDEO), true, false, true, false, false, true, false, CLIPS),
            new PricingModel.PerOutputSecond(BigDecimal.ZERO),
            KlingAdapter::new);

    private KlingVendor() {}
}
