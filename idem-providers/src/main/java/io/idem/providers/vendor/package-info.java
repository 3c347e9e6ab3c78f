/**
 * What a vendor package tells the rest of Idem about itself: its {@link
 * io.idem.providers.vendor.VendorDescriptor} (name, defaults, capabilities, pricing, adapter
 * factories). The bottom of {@code idem-providers}: vendor packages depend on it, the registry
 * ({@code io.idem.providers.Vendors}) lists their descriptors.
 */
package io.idem.providers.vendor;
