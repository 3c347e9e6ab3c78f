package io.idem.core.domain;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** One call (or possible call) to one provider for one job: the audit row of DESIGN §1.6. */
public record Attempt(
        UUID id,
        UUID jobId,
        String provider,
        String model,
        int round,
        AttemptStatus status,
        Optional<String> errorClass,
        Optional<String> errorCode,
        int httpStatus,
        Optional<String> providerRequestId,
        Optional<Long> latencyMs,
        Billable billable,
        BigDecimal costUsd,
        Instant startedAt,
        Optional<Instant> finishedAt) {}
