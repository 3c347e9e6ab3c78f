package io.idem.providers.replicate;

import io.idem.core.domain.JobKind;
import io.idem.core.pricing.PricingModel;
import io.idem.providers.vendor.VendorCapabilities;
import io.idem.providers.vendor.VendorDefaults;
import io.idem.providers.vendor.VendorDescriptor;
import java.util.Optional;
import java.util.Set;

/** Replicate's predictions ({@link ReplicateAdapter}): images and videos, followed by id and listing. */
public final class ReplicateVendor {
    public static final String NAME = "replicate";
    public static final String KEY_VARIABLE = "REPLICATE_API_TOKEN";
    public static final String DEFAULT_MODEL = "black-forest-labs/flux-schnell";

    public static final VendorDescriptor DESCRIPTOR = VendorDescriptor.jobs(
            NAME,
            VendorDefaults.remote(ReplicateEndpoints.DEFAULT_BASE, KEY_VARIABLE, Optional.of(DEFAULT_MODEL)),
            new VendorCapabilities(Set.of(JobKind.IMAGE, JobKind.VIDEO), true, true, true, false, false, true, false)
                    .forwarding(ReplicateInput.PARAMETERS),
            PricingModel.PerImage.FREE,
            ReplicateAdapter::new);

    private ReplicateVendor() {}
}
