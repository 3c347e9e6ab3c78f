package io.idem.embedded;

import java.util.UUID;

/**
 * No job of this owner has the id (another owner's job does not exist for it either). Immutable and
 * thread-safe.
 */
public final class NoSuchJobException extends io.idem.core.IdemException {
    private final UUID jobId;

    public NoSuchJobException(UUID jobId) {
        super("no such job: " + jobId, false);
        this.jobId = jobId;
    }

    public UUID jobId() {
        return jobId;
    }
}
