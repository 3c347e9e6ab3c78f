package io.idem.testkit;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.AttemptStatus;
import io.idem.core.domain.Billable;
import io.idem.core.spi.AttemptDraft;
import io.idem.core.spi.Settlement;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** One attempt row of {@link InMemoryJobQueueStore}. Guarded by the store's lock. */
final class StoredAttempt {
    final UUID id;
    final UUID jobId;
    final String provider;
    final String model;
    final int round;
    final Instant startedAt;
    AttemptStatus status = AttemptStatus.SENDING;
    String errorClass;
    String errorCode;
    int httpStatus;
    String providerRequestId;
    Long latencyMs;
    Billable billable = Billable.UNKNOWN;
    BigDecimal costUsd;
    Instant finishedAt;

    /** Written ahead of its call: sending, billable unknown, the expected cost at risk. */
    StoredAttempt(UUID jobId, AttemptDraft draft, Instant now) {
        this.id = draft.attemptId();
        this.jobId = jobId;
        this.provider = draft.provider();
        this.model = draft.vendorModel();
        this.round = draft.round();
        this.startedAt = now;
        this.costUsd = draft.expectedCostUsd();
    }

    /** The outcome lands, whoever holds the job now (DESIGN §4 step 3: never fenced). */
    void settle(Settlement settlement, Instant now) {
        var outcome = settlement.outcome();
        status = outcome.attemptStatus();
        errorClass = outcome.errorClass();
        errorCode = outcome.errorCode();
        httpStatus = outcome.httpStatus();
        providerRequestId = outcome.providerRequestId().orElse(providerRequestId);
        latencyMs = settlement.latencyMs();
        billable = outcome.billable();
        costUsd = settlement.costUsd();
        finishedAt = now;
    }

    /** The vendor's id is known; only a call still being sent becomes submitted. */
    void submit(String requestId) {
        if (status == AttemptStatus.SENDING) {
            status = AttemptStatus.SUBMITTED;
            providerRequestId = requestId;
        }
    }

    /** The worker died mid-call: nobody knows what the vendor did. */
    void loseWorker(Instant now) {
        if (status == AttemptStatus.SENDING || status == AttemptStatus.SUBMITTED) {
            status = AttemptStatus.UNCONFIRMED;
            errorClass = "unconfirmed";
            errorCode = "worker_lost";
            billable = Billable.UNKNOWN;
            finishedAt = now;
        }
    }

    Attempt view() {
        return new Attempt(
                id,
                jobId,
                provider,
                model,
                round,
                status,
                new Attempt.Answer(
                        httpStatus,
                        Optional.ofNullable(errorClass),
                        Optional.ofNullable(errorCode),
                        Optional.ofNullable(providerRequestId)),
                new Attempt.Bill(billable, costUsd),
                new Attempt.Timing(startedAt, Optional.ofNullable(finishedAt), Optional.ofNullable(latencyMs)));
    }
}
