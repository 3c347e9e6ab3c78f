package io.idem.providers.chat;

import io.idem.core.pricing.PricingModel;
import io.idem.providers.vendor.VendorCapabilities;
import io.idem.providers.vendor.VendorDefaults;
import io.idem.providers.vendor.VendorDescriptor;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/** The static tier ({@link StaticChatAdapter}): answers from memory, calls nothing, costs nothing. */
public final class StaticVendor {
    public static final String NAME = "static";

    /** Its own setting: a JSON or YAML file of answers (absent: the built-in demo answers). */
    public static final String ANSWERS_FILE = "answers_file";

    /** Never dialled: every provider has an address, and this one has nowhere to go. */
    public static final URI NOWHERE = URI.create("http://127.0.0.1:0");

    public static final VendorDescriptor DESCRIPTOR = VendorDescriptor.chat(
                    NAME,
                    new VendorDefaults(NOWHERE, Optional.empty(), Optional.empty(), Optional.empty(), false),
                    new VendorCapabilities(Set.of(), false, false, false, true, false, false, false),
                    PricingModel.PerToken.FREE,
                    w -> new StaticChatAdapter(w.answersFile()
                            .map(Path::of)
                            .map(StaticAnswers::read)
                            .orElseGet(StaticAnswers::demo)))
            .withOwnSettings(Set.of(ANSWERS_FILE));

    private StaticVendor() {}
}
