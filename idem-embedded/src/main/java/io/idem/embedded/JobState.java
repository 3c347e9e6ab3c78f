package io.idem.embedded;

/**
 * The states of a job. A job is accepted {@link #QUEUED}, claimed {@link #RUNNING}, and ends
 * {@link #SUCCEEDED}, {@link #FAILED} or {@link #CANCELED}; a job whose provider call has an unknown
 * outcome parks in {@link #MANUAL_REVIEW} until the reconcile sweep or an operator decides (it is
 * never retried blindly). Immutable and thread-safe.
 */
public enum JobState {
    QUEUED,
    RUNNING,
    SUCCEEDED,
    FAILED,
    MANUAL_REVIEW,
    CANCELED;

    /** Whether the job has ended for good: succeeded, failed or canceled (a parked job has not). */
    public boolean isFinished() {
        return switch (this) {
            case SUCCEEDED, FAILED, CANCELED -> true;
            case QUEUED, RUNNING, MANUAL_REVIEW -> false;
        };
    }

    /** The lower-case name the HTTP API uses ({@code manual_review}). */
    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
