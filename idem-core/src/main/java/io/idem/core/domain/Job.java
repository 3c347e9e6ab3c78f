package io.idem.core.domain;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** A job as stored, with its attempts (the read model of DESIGN §7). */
public record Job(
        UUID id,
        String owner,
        JobState state,
        JobSpec spec,
        int round,
        Optional<JobResult> result,
        Optional<JobError> error,
        Optional<Review> review,
        Instant createdAt,
        Instant updatedAt,
        List<Attempt> attempts) {

    public Job {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(review, "review");
        attempts = List.copyOf(attempts);
    }

    /** How many provider calls this job has made (or may have made). */
    public int providerCalls() {
        return attempts.size();
    }

    /** Why a job failed; {@code errorClass} is the outcome class that ended it. */
    public record JobError(String code, String message, String errorClass) {}

    /** Why a job waits for reconcile or an operator, and since when. */
    public record Review(String reason, Instant since) {}
}
