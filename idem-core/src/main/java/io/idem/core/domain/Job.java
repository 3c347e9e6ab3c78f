package io.idem.core.domain;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A job as stored, with its attempts.
 *
 * @param round which pass over the candidates the job is on (1 for the first)
 * @param times when the job was created and last changed
 */
public record Job(
        UUID id,
        String owner,
        JobState state,
        JobSpec spec,
        int round,
        Optional<JobResult> result,
        Optional<JobError> error,
        Optional<Review> review,
        Times times,
        List<Attempt> attempts) {

    public Job {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(review, "review");
        Objects.requireNonNull(times, "times");
        attempts = List.copyOf(attempts);
    }

    /**
     * When the job was created and when it last changed.
     *
     * @param notBefore a deferred job is not claimed before this
     * @param deadline after this the job makes no call and is not deferred again (empty: its
     *     creation plus the spec's deadline)
     */
    public record Times(Instant createdAt, Instant updatedAt, Optional<Instant> notBefore, Optional<Instant> deadline) {
        public Times {
            Objects.requireNonNull(createdAt, "createdAt");
            Objects.requireNonNull(updatedAt, "updatedAt");
            Objects.requireNonNull(notBefore, "notBefore");
            Objects.requireNonNull(deadline, "deadline");
        }

        /** Times of a job that was never deferred and keeps the deadline its spec gives it. */
        public Times(Instant createdAt, Instant updatedAt) {
            this(createdAt, updatedAt, Optional.empty(), Optional.empty());
        }
    }

    /** After this the job makes no call and is not deferred again. */
    public Instant deadline() {
        return times.deadline().orElseGet(() -> times.createdAt().plusSeconds(spec.deadlineSeconds()));
    }

    public Instant createdAt() {
        return times.createdAt();
    }

    public Instant updatedAt() {
        return times.updatedAt();
    }

    /** How many provider calls this job has made (or may have made). */
    public int providerCalls() {
        return attempts.size();
    }

    /**
     * What this job may have cost: its attempts billed or of unknown billing, at their actual or
     * expected cost (what a cost ceiling is measured against).
     */
    public BigDecimal spentUsd() {
        return attempts.stream()
                .filter(a -> a.billable() != Billable.NO)
                .map(Attempt::costUsd)
                .reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    /** Why a job failed; {@code errorClass} is the outcome class that ended it. */
    public record JobError(String code, String message, String errorClass) {}

    /** Why a job waits for reconcile or an operator, and since when. */
    public record Review(String reason, Instant since) {}
}
