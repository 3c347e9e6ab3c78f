package io.idem.providers.fal;

import io.idem.core.domain.JobKind;
import io.idem.core.pricing.PricingModel;
import io.idem.providers.vendor.VendorCapabilities;
import io.idem.providers.vendor.VendorDefaults;
import io.idem.providers.vendor.VendorDescriptor;
import java.util.Optional;
import java.util.Set;

/** fal's queue API ({@link FalAdapter}): images and videos, followed by request id and history. */
public final class FalVendor {
    public static final String NAME = "fal";
    public static final String KEY_VARIABLE = "FAL_KEY";
    public static final String DEFAULT_MODEL = "fal-ai/flux/schnell";

    public static final VendorDescriptor DESCRIPTOR = VendorDescriptor.jobs(
            NAME,
            VendorDefaults.remote(FalEndpoints.DEFAULT_BASE, KEY_VARIABLE, Optional.of(DEFAULT_MODEL)),
            new VendorCapabilities(Set.of(JobKind.IMAGE, JobKind.VIDEO), true, true, true, false, false, true, false)
                    .forwarding(FalInput.PARAMETERS),
            PricingModel.PerImage.FREE,
            FalAdapter::new);

    private FalVendor() {}
}
