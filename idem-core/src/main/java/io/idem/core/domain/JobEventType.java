package io.idem.core.domain;

/**
 * The closed set of entries in a job's trace. The wire names are what {@code job_events.type}
 * stores (a CHECK constraint holds the table to exactly this set) and what the API shows.
 */
public enum JobEventType {
    CREATED("job.created"),
    CLAIMED("job.claimed"),
    REQUEUED("job.requeued"),
    DEFERRED("job.deferred"),
    FAILED_OVER("attempt.failed_over"),
    CANDIDATE_SKIPPED("candidate.skipped"),
    SUCCEEDED("job.succeeded"),
    FAILED("job.failed"),
    MANUAL_REVIEW("job.manual_review"),
    RECONCILED("job.reconciled"),
    RESOLVED("job.resolved"),
    REVIEW_EXPIRED("job.review_expired"),
    CANCELED("job.canceled"),
    /** Output moderation's verdict on a result of a moderated lane (delivered or withheld). */
    OUTPUT_MODERATED("output.moderated");

    private final String wire;

    JobEventType(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static JobEventType fromWire(String value) {
        for (JobEventType type : values()) {
            if (type.wire.equals(value)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown job event type: '" + value + "'");
    }
}
