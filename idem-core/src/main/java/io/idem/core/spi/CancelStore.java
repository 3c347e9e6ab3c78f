package io.idem.core.spi;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** The moves a client's cancel makes. Each is fenced by the job's state; {@code false}: it moved on. */
public interface CancelStore {
    /** queued → canceled. */
    boolean cancelQueued(UUID jobId, String actor, Instant now);

    /**
     * running → canceled, taking the job from its worker (whose later writes are then refused); the
     * open attempt, if any, is closed as not delivered and not billed.
     */
    boolean cancelRunning(UUID jobId, Optional<UUID> openAttempt, String actor, String detail, Instant now);

    /** running → manual_review ({@code cancel_unconfirmed}): the vendor could not confirm the cancel. */
    boolean parkRunning(UUID jobId, UUID openAttempt, String actor, String detail, Instant now);
}
