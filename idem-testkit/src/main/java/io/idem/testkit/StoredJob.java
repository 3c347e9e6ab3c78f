package io.idem.testkit;

import io.idem.core.domain.Job;
import io.idem.core.domain.JobResult;
import io.idem.core.domain.JobSpec;
import io.idem.core.domain.JobState;
import io.idem.core.domain.JobTransitions;
import io.idem.core.spi.AttemptDraft;
import io.idem.core.spi.Lease;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** One job row of {@link InMemoryJobQueueStore}, with its attempts. Guarded by the store's lock. */
final class StoredJob {
    final UUID id;
    final String owner;
    final JobSpec spec;
    final Instant createdAt;
    final List<StoredAttempt> attempts = new ArrayList<>();
    JobState state = JobState.QUEUED;
    int round = 1;
    UUID leaseToken;
    Instant leaseExpiresAt;
    Instant updatedAt;
    Instant notBefore;
    Instant deadline;
    Optional<JobResult> result = Optional.empty();
    Optional<Job.JobError> error = Optional.empty();
    Optional<Job.Review> review = Optional.empty();

    StoredJob(UUID id, String owner, JobSpec spec, Instant createdAt) {
        this.id = id;
        this.owner = owner;
        this.spec = spec;
        this.createdAt = createdAt;
        this.updatedAt = createdAt;
        this.deadline = createdAt.plusSeconds(spec.deadlineSeconds());
    }

    /** Whether a claim at {@code now} may take it. */
    boolean dueAt(Instant now) {
        return state == JobState.QUEUED && (notBefore == null || !notBefore.isAfter(now));
    }

    /** The job as a reader sees it; {@code withAttempts} false gives what a claim returns. */
    Job view(boolean withAttempts) {
        return new Job(
                id,
                owner,
                state,
                spec,
                round,
                result,
                error,
                review,
                new Job.Times(createdAt, updatedAt, Optional.ofNullable(notBefore), Optional.of(deadline)),
                withAttempts ? attempts.stream().map(StoredAttempt::view).toList() : List.of());
    }

    boolean heldBy(Lease lease) {
        return state == JobState.RUNNING && lease.token().equals(leaseToken);
    }

    boolean hasOpenAttempt() {
        return attempts.stream().anyMatch(a -> a.status.isOpen());
    }

    /** Whether the database's unique indexes would refuse this attempt (same provider this round, or one open). */
    boolean refuses(AttemptDraft draft) {
        return hasOpenAttempt()
                || attempts.stream().anyMatch(a -> a.provider.equals(draft.provider()) && a.round == draft.round());
    }

    /** Moves the job and ends its lease; the whitelist is asked first, as every store does. */
    void moveTo(JobState to, Instant now) {
        JobTransitions.check(state, to);
        state = to;
        leaseToken = null;
        leaseExpiresAt = null;
        updatedAt = now;
    }
}
