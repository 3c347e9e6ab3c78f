package io.idem.testkit;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.AttemptStatus;
import io.idem.core.domain.Billable;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** Test data builder for attempts: by default one to {@code primary} still being sent, round 1. */
public final class AttemptBuilder {
    private UUID id = UUID.randomUUID();
    private UUID jobId = UUID.randomUUID();
    private String provider = "primary";
    private int round = 1;
    private AttemptStatus status = AttemptStatus.SENDING;
    private String requestId;
    private Billable billable = Billable.UNKNOWN;
    private Instant startedAt = ManualClock.DEFAULT_START;

    private AttemptBuilder() {}

    public static AttemptBuilder anAttempt() {
        return new AttemptBuilder();
    }

    public AttemptBuilder id(UUID value) {
        id = value;
        return this;
    }

    public AttemptBuilder ofJob(UUID value) {
        jobId = value;
        return this;
    }

    public AttemptBuilder to(String value) {
        provider = value;
        return this;
    }

    public AttemptBuilder round(int value) {
        round = value;
        return this;
    }

    public AttemptBuilder status(AttemptStatus value) {
        status = value;
        billable = switch (value) {
            case SUCCEEDED -> Billable.YES;
            case FAILED -> Billable.NO;
            case SENDING, SUBMITTED, UNCONFIRMED, ABANDONED -> Billable.UNKNOWN;
        };
        return this;
    }

    public AttemptBuilder billable(Billable value) {
        billable = value;
        return this;
    }

    /** The vendor's request id, known since the call was submitted. */
    public AttemptBuilder requestId(String value) {
        requestId = value;
        return this;
    }

    public AttemptBuilder startedAt(Instant value) {
        startedAt = value;
        return this;
    }

    public Attempt build() {
        boolean open = status.isOpen();
        return new Attempt(
                id,
                jobId,
                provider,
                "vendor-model",
                round,
                status,
                new Attempt.Answer(0, Optional.empty(), Optional.empty(), Optional.ofNullable(requestId)),
                new Attempt.Bill(billable, BigDecimal.ZERO),
                new Attempt.Timing(startedAt, open ? Optional.empty() : Optional.of(startedAt), Optional.empty()));
    }
}
