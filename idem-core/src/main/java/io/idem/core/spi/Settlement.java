package io.idem.core.spi;

import io.idem.core.moderation.ModerationVerdict;
import io.idem.core.outcome.Outcome;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.UUID;

/**
 * The outcome of one attempt and what it does to the job. The attempt row is always written (a
 * late result must never be lost); the job move is fenced by the lease. {@code verdict}: what output
 * moderation said about a confirmed result, when its lane is moderated (audited with the move).
 */
public record Settlement(
        UUID attemptId,
        String provider,
        Outcome outcome,
        long latencyMs,
        BigDecimal costUsd,
        JobMove move,
        Optional<ModerationVerdict> verdict) {
    public Settlement {
        java.util.Objects.requireNonNull(verdict, "verdict");
    }

    /** A settlement of an unmoderated attempt. */
    public Settlement(
            UUID attemptId, String provider, Outcome outcome, long latencyMs, BigDecimal costUsd, JobMove move) {
        this(attemptId, provider, outcome, latencyMs, costUsd, move, Optional.empty());
    }
}
