package io.idem.core.budget;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * One call about to go out, asking to hold its expected cost against every budget it falls under:
 * its provider's daily budget (when {@code providerCapUsd} is set) and the daily and monthly budgets
 * of its API key (the store reads those itself: the key named by {@code apiKeyId}, else the key
 * that created job {@code jobId}).
 *
 * @param id the hold's id: a job attempt's id (the sweeper settles the hold from that attempt), or a
 *     fresh id for a chat attempt
 * @param heldUntil when a hold nobody settled is settled by the sweeper
 */
public record HoldRequest(
        UUID id,
        String provider,
        Optional<BigDecimal> providerCapUsd,
        Optional<UUID> jobId,
        Optional<UUID> apiKeyId,
        BigDecimal expectedUsd,
        Instant at,
        Instant heldUntil) {
    public HoldRequest {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(providerCapUsd, "providerCapUsd");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(apiKeyId, "apiKeyId");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(heldUntil, "heldUntil");
        if (expectedUsd.signum() < 0) {
            throw new IllegalArgumentException("an expected cost is not negative, was " + expectedUsd);
        }
    }

    /** A job attempt's hold ({@code kind = job}); otherwise a chat attempt's. */
    public boolean forJob() {
        return jobId.isPresent();
    }
}
