package io.idem.core.domain;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * One call (or possible call) to one provider for one job: the audit row that adds up to the
 * provider's invoice.
 *
 * @param round which pass over the job's candidates this call belongs to (1 for the first)
 * @param answer what the provider said (or that it said nothing we could read)
 * @param bill whether the call is billed and what it cost
 * @param timing when the call started and ended
 */
public record Attempt(
        UUID id,
        UUID jobId,
        String provider,
        String model,
        int round,
        AttemptStatus status,
        Answer answer,
        Bill bill,
        Timing timing) {

    public Attempt {
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(bill, "bill");
        Objects.requireNonNull(timing, "timing");
    }

    /**
     * What the provider answered.
     *
     * @param httpStatus the provider's HTTP status, 0 when no answer was read
     * @param errorClass the outcome class of a failed call
     * @param providerRequestId the provider's own id for the call, when it gave one
     */
    public record Answer(
            int httpStatus,
            Optional<String> errorClass,
            Optional<String> errorCode,
            Optional<String> providerRequestId) {
        public static Answer none() {
            return new Answer(0, Optional.empty(), Optional.empty(), Optional.empty());
        }
    }

    /** Whether the call is billed ({@code unknown} until known) and its cost. */
    public record Bill(Billable billable, BigDecimal costUsd) {
        public Bill {
            Objects.requireNonNull(billable, "billable");
            Objects.requireNonNull(costUsd, "costUsd");
        }
    }

    /** When the call started, when it ended (empty while open), and how long the provider took. */
    public record Timing(Instant startedAt, Optional<Instant> finishedAt, Optional<Long> latencyMs) {}

    public Optional<String> errorClass() {
        return answer.errorClass();
    }

    public Optional<String> errorCode() {
        return answer.errorCode();
    }

    public int httpStatus() {
        return answer.httpStatus();
    }

    public Optional<String> providerRequestId() {
        return answer.providerRequestId();
    }

    public Optional<Long> latencyMs() {
        return timing.latencyMs();
    }

    public Billable billable() {
        return bill.billable();
    }

    public BigDecimal costUsd() {
        return bill.costUsd();
    }

    public Instant startedAt() {
        return timing.startedAt();
    }

    public Optional<Instant> finishedAt() {
        return timing.finishedAt();
    }
}
