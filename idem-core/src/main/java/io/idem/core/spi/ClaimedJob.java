package io.idem.core.spi;

import io.idem.core.domain.Job;
import java.util.Set;

/** A job a worker holds the lease on, with the providers already tried in its current round. */
public record ClaimedJob(Job job, Lease lease, Set<String> attemptedThisRound) {
    public ClaimedJob {
        attemptedThisRound = Set.copyOf(attemptedThisRound);
    }
}
