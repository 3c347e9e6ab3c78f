package io.idem.core.spi;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** Identifies an earlier call for reconcile or cancel. */
public record AttemptRef(
        String provider, String reference, Optional<String> providerRequestId, String vendorModel, Instant startedAt) {
    public AttemptRef {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(providerRequestId, "providerRequestId");
    }
}
