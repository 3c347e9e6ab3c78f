package io.idem.providers.fake;

import io.idem.core.domain.JobKind;
import io.idem.core.pricing.PricingModel;
import io.idem.providers.chat.FakeChatAdapter;
import io.idem.providers.http.PollSchedule;
import io.idem.providers.vendor.VendorCapabilities;
import io.idem.providers.vendor.VendorDefaults;
import io.idem.providers.vendor.VendorDescriptor;
import java.net.URI;
import java.util.Optional;
import java.util.Set;

/** The fake vendor ({@link FakeVendorServer}): images, videos and chat, every follow-up, {@code simulate}. */
public final class FakeVendor {
    public static final String NAME = "fake";

    /** What the node runs in-process when a {@code fake} provider has no {@code base_url}. */
    public static final URI IN_PROCESS = URI.create("http://127.0.0.1:0");

    /** The model the fake vendor's images are made with when none is named. */
    public static final String DEFAULT_MODEL = "fake-image-v1";

    public static final VendorDescriptor DESCRIPTOR = new VendorDescriptor(
            NAME,
            new VendorDefaults(IN_PROCESS, Optional.empty(), Optional.empty(), Optional.of(DEFAULT_MODEL), true),
            new VendorCapabilities(Set.of(JobKind.IMAGE, JobKind.VIDEO), true, true, true, true, true, true, true)
                    .forwarding(io.idem.core.domain.ImageParams.ALL),
            PricingModel.PerImage.FREE,
            Set.of(),
            Optional.of((settings, client, environment, redactor, clock) ->
                    new FakeAdapter(settings, client, environment, redactor, clock, PollSchedule.STANDARD)),
            Optional.of(w -> new FakeChatAdapter(w.settings(), w.client(), w.environment(), w.redactor())));

    private FakeVendor() {}
}
