package io.idem.core.spi;

import io.idem.core.outcome.Outcome;
import java.math.BigDecimal;
import java.util.UUID;

/**
 * The outcome of one attempt and what it does to the job. The attempt row is always written (a
 * late result must never be lost); the job move is fenced by the lease.
 */
public record Settlement(
        UUID attemptId, String provider, Outcome outcome, long latencyMs, BigDecimal costUsd, JobMove move) {}
