package io.idem.embedded;

import java.util.UUID;

/**
 * The idempotency key was used before with a different request (the HTTP API's {@code 409
 * idempotency_key_reused}). Nothing new was accepted; {@link #jobId()} is the job the key belongs to.
 * The key itself is never quoted. Immutable and thread-safe.
 */
public final class IdempotencyKeyReusedException extends io.idem.core.IdemException {
    private final UUID jobId;

    public IdempotencyKeyReusedException(UUID jobId) {
        super("this idempotency key was used before with a different request (job " + jobId + ")", false);
        this.jobId = jobId;
    }

    /** The job first accepted under the key. */
    public UUID jobId() {
        return jobId;
    }
}
