package io.idem.core.spi;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.AttemptStatus;
import io.idem.core.domain.Job;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A parked job held for reconcile by one node: every write it leads to is fenced by {@code hold}
 * and by the job still being in manual_review.
 */
public record ReviewCase(Job job, UUID hold) {
    public ReviewCase {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(hold, "hold");
    }

    /** The attempt whose outcome is unknown (or whose late result waits), in the current round. */
    public Optional<Attempt> pendingAttempt() {
        return pendingAttemptOf(job);
    }

    /** The same, for any parked job. */
    public static Optional<Attempt> pendingAttemptOf(Job job) {
        return job.attempts().stream()
                .filter(a -> a.round() == job.round())
                .filter(a -> a.status() == AttemptStatus.UNCONFIRMED
                        || a.status() == AttemptStatus.SUBMITTED
                        || a.status() == AttemptStatus.SENDING
                        || a.status() == AttemptStatus.SUCCEEDED)
                .reduce((first, second) -> second);
    }
}
