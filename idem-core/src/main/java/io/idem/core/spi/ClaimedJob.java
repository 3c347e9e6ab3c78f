package io.idem.core.spi;

import io.idem.core.domain.Job;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * A job a worker holds the lease on, with the providers already tried in its current round.
 *
 * @param keyBudgeted whether the API key that created the job carried a daily or monthly budget when
 *     the job was claimed ({@code true} when the store cannot tell: then every hold asks)
 * @param claimedAt when the claim read the job and its key
 */
public record ClaimedJob(Job job, Lease lease, Set<String> attemptedThisRound, boolean keyBudgeted, Instant claimedAt) {
    public ClaimedJob {
        attemptedThisRound = Set.copyOf(attemptedThisRound);
        Objects.requireNonNull(claimedAt, "claimedAt");
    }
}
