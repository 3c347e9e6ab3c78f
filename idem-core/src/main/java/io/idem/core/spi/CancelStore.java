package io.idem.core.spi;

import io.idem.core.domain.Attempt;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The moves a client's cancel makes. A running job is first taken from its worker ({@link
 * #takeOver}), so the worker can start no further call while the vendor is asked to cancel; every
 * later move is fenced by that lease. {@code false}: the job moved on meanwhile.
 */
public interface CancelStore {
    /** queued → canceled. */
    boolean cancelQueued(UUID jobId, String actor, Instant now);

    /** A running job taken over by the canceller, and its open attempt (if a call is in flight). */
    record Takeover(Lease lease, Optional<Attempt> openAttempt) {}

    /**
     * Replaces the worker's lease with the canceller's (the worker's later writes are refused, its
     * outcome still lands on the attempt). Empty if the job is no longer running.
     */
    Optional<Takeover> takeOver(UUID jobId, Duration holdFor, Instant now);

    /** running → canceled under the canceller's lease; the open attempt is closed as not billed. */
    boolean cancelRunning(Lease lease, Optional<UUID> openAttempt, String actor, String detail, Instant now);

    /** running → manual_review ({@code cancel_unconfirmed}) under the canceller's lease. */
    boolean parkRunning(Lease lease, UUID openAttempt, String actor, String detail, Instant now);
}
