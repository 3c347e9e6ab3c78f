package io.idem.core.breaker;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One provider's shared breaker state, as stored (and cached on every node).
 *
 * @param rateLimitedUntil until when the vendor asked us to stay away ({@code 429} with {@code
 *     Retry-After}); independent of the breaker's state, and never a breaker failure
 */
public record BreakerSnapshot(
        String provider,
        BreakerState state,
        int reopens,
        Optional<Instant> openUntil,
        Optional<Instant> probeUntil,
        long version,
        Optional<Instant> rateLimitedUntil) {
    public BreakerSnapshot {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(openUntil, "openUntil");
        Objects.requireNonNull(probeUntil, "probeUntil");
        Objects.requireNonNull(rateLimitedUntil, "rateLimitedUntil");
    }

    /** A snapshot without a rate limit. */
    public BreakerSnapshot(
            String provider,
            BreakerState state,
            int reopens,
            Optional<Instant> openUntil,
            Optional<Instant> probeUntil,
            long version) {
        this(provider, state, reopens, openUntil, probeUntil, version, Optional.empty());
    }

    public static BreakerSnapshot closed(String provider) {
        return new BreakerSnapshot(provider, BreakerState.CLOSED, 0, Optional.empty(), Optional.empty(), 0);
    }

    /** Whether the vendor's rate limit is still in force at {@code now}. */
    public boolean rateLimitedAt(Instant now) {
        return rateLimitedUntil.map(now::isBefore).orElse(false);
    }
}
