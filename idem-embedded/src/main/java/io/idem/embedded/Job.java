package io.idem.embedded;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A job as stored when it was read, with every provider call made for it: the same facts as {@code
 * GET /v1/jobs/{id}}. A snapshot: read the job again for news. Immutable and thread-safe.
 *
 * @param what what was asked for
 * @param result what a succeeded job delivered
 * @param failure why a failed job failed
 * @param review why a parked job waits, and since when
 * @param attempts every provider call (or possible call), oldest first
 */
public record Job(
        UUID id,
        JobState state,
        What what,
        Instant createdAt,
        Instant updatedAt,
        Optional<Result> result,
        Optional<Failure> failure,
        Optional<Review> review,
        List<Attempt> attempts) {
    public Job {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(review, "review");
        attempts = List.copyOf(attempts);
    }

    /**
     * What was asked for. Immutable.
     *
     * @param model the Idem model name, when the request named one
     * @param candidates the providers the job may use, in order
     */
    public record What(String prompt, String kind, String lane, Optional<String> model, List<String> candidates) {
        public What {
            candidates = List.copyOf(candidates);
        }
    }

    /** The provider that served the job and the files it delivered (read them with {@link Idem#asset}). Immutable. */
    public record Result(String provider, List<Asset> assets) {
        public Result {
            assets = List.copyOf(assets);
        }
    }

    /** One delivered file: its id, content type and size in bytes. Immutable. */
    public record Asset(UUID id, String mimeType, long bytes) {}

    /** Why a job failed: a stable code, a message, and the outcome class that ended it. Immutable. */
    public record Failure(String code, String message, String errorClass) {}

    /** Why a job waits in review ({@code worker_lost}, {@code unconfirmed}, …) and since when. Immutable. */
    public record Review(String reason, Instant since) {}

    /**
     * One call (or possible call) to one provider, as the audit records it. Immutable.
     *
     * @param id the attempt's id, which Idem also sends the vendor as its reference for the call
     * @param status {@code sending}, {@code submitted}, {@code unconfirmed}, {@code succeeded}, {@code failed}, …
     * @param httpStatus the provider's HTTP status, 0 when none was read
     * @param billable {@code yes}, {@code no} or {@code unknown}
     */
    public record Attempt(
            UUID id,
            String provider,
            String model,
            String status,
            Optional<String> errorClass,
            int httpStatus,
            Optional<String> providerRequestId,
            Optional<Long> latencyMs,
            String billable,
            BigDecimal costUsd) {}

    /** How many provider calls the job made (or may have made). */
    public int providerCalls() {
        return attempts.size();
    }
}
