package io.idem.providers.runware;

import io.idem.core.domain.JobKind;
import io.idem.core.pricing.PricingModel;
import io.idem.core.provider.VideoCapabilities;
import io.idem.providers.vendor.VendorCapabilities;
import io.idem.providers.vendor.VendorDefaults;
import io.idem.providers.vendor.VendorDescriptor;
import java.util.Optional;
import java.util.Set;

/** Runware's task API ({@link RunwareAdapter}): images and videos under our own task UUID, no cancel. */
public final class RunwareVendor {
    public static final String NAME = "runware";
    public static final String KEY_VARIABLE = "RUNWARE_API_KEY";

    /** Any clip its models make, without a generated soundtrack (no common field asks for one). */
    public static final VideoCapabilities CLIPS = new VideoCapabilities(Set.of(), 0, Set.of(), Set.of(), true, false);

    /** No default model: a Runware AIR id must be configured. */
    public static final VendorDescriptor DESCRIPTOR = VendorDescriptor.jobs(
            NAME,
            VendorDefaults.remote(RunwareAdapter.DEFAULT_BASE_URL, KEY_VARIABLE, Optional.empty()),
            new VendorCapabilities(
                            Set.of(JobKind.IMAGE, JobKind.VIDEO), true, false, true, false, false, true, true, CLIPS)
                    .forwarding(RunwareTasks.PARAMETERS),
            PricingModel.PerImage.FREE,
            RunwareAdapter::new);

    private RunwareVendor() {}
}
