package io.idem.core.breaker;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** One provider's shared breaker state, as stored (and cached on every node). */
public record BreakerSnapshot(
        String provider,
        BreakerState state,
        int reopens,
        Optional<Instant> openUntil,
        Optional<Instant> probeUntil,
        long version) {
    public BreakerSnapshot {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(openUntil, "openUntil");
        Objects.requireNonNull(probeUntil, "probeUntil");
    }

    public static BreakerSnapshot closed(String provider) {
        return new BreakerSnapshot(provider, BreakerState.CLOSED, 0, Optional.empty(), Optional.empty(), 0);
    }
}
