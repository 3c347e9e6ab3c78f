package io.idem.embedded;

/**
 * An operator's decision on a job parked in review, as {@code POST /v1/jobs/{id}/resolve} takes it.
 * Immutable and thread-safe.
 */
public enum Decision {
    /** Put the job back in the queue for its next candidate (the parked attempt stays billed as unknown). */
    RETRY,
    /** Fail the job. */
    FAIL,
    /** The provider did deliver: the job succeeds with the result that arrived late on its attempt. */
    CONFIRM_RESULT;

    /** The name the HTTP API uses ({@code confirm_result}). */
    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
