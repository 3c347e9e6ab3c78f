package io.idem.embedded;

import java.util.UUID;

/**
 * A review decision or reconcile could not be made now: the job is not parked in review ({@code
 * job_not_in_review}), a reconcile holds it ({@code reconcile_in_progress}: try again shortly), or
 * there is no attempt whose result could be confirmed ({@code no_pending_attempt}). Nothing changed.
 * Immutable and thread-safe.
 */
public final class UnableToResolveException extends io.idem.core.IdemException {
    private final UUID jobId;
    private final String code;

    public UnableToResolveException(UUID jobId, String code, String message) {
        super(message + " (job " + jobId + ")", false);
        this.jobId = jobId;
        this.code = code;
    }

    public UUID jobId() {
        return jobId;
    }

    /** The HTTP API's error code for this refusal. */
    public String code() {
        return code;
    }
}
