package io.idem.providers;

import io.idem.providers.chat.OllamaVendor;
import io.idem.providers.chat.OpenAiChatVendor;
import io.idem.providers.chat.StaticVendor;
import io.idem.providers.fake.FakeVendor;
import io.idem.providers.fal.FalVendor;
import io.idem.providers.kling.KlingVendor;
import io.idem.providers.openai.OpenAiImagesVendor;
import io.idem.providers.replicate.ReplicateVendor;
import io.idem.providers.runware.RunwareVendor;
import io.idem.providers.vendor.VendorDescriptor;
import io.idem.providers.veo.VeoVendor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The vendors this build knows: the one closed set of {@code adapter} names. Adding a vendor is its
 * package (adapter, descriptor, stand-in tests) and one line here; configuration, adapter creation
 * and the docs' checks all read this list. Immutable and thread-safe.
 */
public final class Vendors {
    /** In the order configuration messages list them. */
    public static final List<VendorDescriptor> ALL = List.of(
            FakeVendor.DESCRIPTOR,
            OpenAiImagesVendor.DESCRIPTOR,
            FalVendor.DESCRIPTOR,
            ReplicateVendor.DESCRIPTOR,
            RunwareVendor.DESCRIPTOR,
            KlingVendor.DESCRIPTOR,
            VeoVendor.DESCRIPTOR,
            OpenAiChatVendor.DESCRIPTOR,
            OllamaVendor.DESCRIPTOR,
            StaticVendor.DESCRIPTOR);

    private static final Map<String, VendorDescriptor> BY_NAME = byName(ALL);

    private Vendors() {}

    /** The vendor configured as {@code adapter}, if this build has it. */
    public static Optional<VendorDescriptor> named(String adapter) {
        return Optional.ofNullable(BY_NAME.get(adapter));
    }

    /** Names of the vendors with a job side. */
    public static Set<String> jobNames() {
        return names(descriptor -> descriptor.jobs().isPresent());
    }

    /** Names of the vendors with a chat side. */
    public static Set<String> chatNames() {
        return names(descriptor -> descriptor.chat().isPresent());
    }

    /** Names of the vendors that serve chat only. */
    public static Set<String> chatOnlyNames() {
        return names(VendorDescriptor::chatOnly);
    }

    private static Set<String> names(Predicate<VendorDescriptor> which) {
        return ALL.stream()
                .filter(which)
                .map(VendorDescriptor::name)
                .collect(Collectors.toCollection(java.util.LinkedHashSet::new));
    }

    private static Map<String, VendorDescriptor> byName(List<VendorDescriptor> all) {
        Map<String, VendorDescriptor> byName = new LinkedHashMap<>();
        for (VendorDescriptor descriptor : all) {
            if (byName.putIfAbsent(descriptor.name(), descriptor) != null) {
                throw new IllegalStateException("two vendors are named '" + descriptor.name() + "'");
            }
        }
        return Map.copyOf(byName);
    }
}
