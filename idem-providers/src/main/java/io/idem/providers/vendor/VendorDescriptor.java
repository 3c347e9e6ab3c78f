package io.idem.providers.vendor;

import io.idem.core.pricing.PricingModel;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Everything Idem knows about one vendor, written once in the vendor's own package and listed by
 * {@code io.idem.providers.Vendors}: configuration defaults come from here, adapters are created
 * from here. A vendor has a job side, a chat side, or both. Immutable.
 *
 * @param name the {@code adapter} value in configuration
 * @param pricing how a provider of this vendor bills before configuration sets a price (the unit,
 *     at zero)
 * @param ownSettings provider settings only this vendor reads (the static tier's {@code answers_file})
 * @param jobs creates the job adapter; empty: chat only
 * @param chat creates the chat adapter; empty: jobs only
 */
public record VendorDescriptor(
        String name,
        VendorDefaults defaults,
        VendorCapabilities capabilities,
        PricingModel pricing,
        Set<String> ownSettings,
        Optional<JobAdapterFactory> jobs,
        Optional<ChatAdapterFactory> chat) {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}");

    public VendorDescriptor {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("vendor name '" + name + "' must be lower-case letters, digits or '_'");
        }
        Objects.requireNonNull(defaults, "defaults");
        Objects.requireNonNull(capabilities, "capabilities");
        Objects.requireNonNull(pricing, "pricing");
        ownSettings = Set.copyOf(ownSettings);
        Objects.requireNonNull(jobs, "jobs");
        Objects.requireNonNull(chat, "chat");
        if (jobs.isEmpty() && chat.isEmpty()) {
            throw new IllegalArgumentException("vendor '" + name + "' creates no adapter at all");
        }
    }

    /** A vendor with a job side only. */
    public static VendorDescriptor jobs(
            String name,
            VendorDefaults defaults,
            VendorCapabilities capabilities,
            PricingModel pricing,
            JobAdapterFactory jobs) {
        return new VendorDescriptor(
                name, defaults, capabilities, pricing, Set.of(), Optional.of(jobs), Optional.empty());
    }

    /** A vendor with a chat side only. */
    public static VendorDescriptor chat(
            String name,
            VendorDefaults defaults,
            VendorCapabilities capabilities,
            PricingModel pricing,
            ChatAdapterFactory chat) {
        return new VendorDescriptor(
                name, defaults, capabilities, pricing, Set.of(), Optional.empty(), Optional.of(chat));
    }

    /** Whether it serves chat and never jobs (job routing never sees its providers). */
    public boolean chatOnly() {
        return jobs.isEmpty();
    }

    /** The same vendor, taking {@code settings} only it reads. */
    public VendorDescriptor withOwnSettings(Set<String> settings) {
        return new VendorDescriptor(name, defaults, capabilities, pricing, settings, jobs, chat);
    }
}
