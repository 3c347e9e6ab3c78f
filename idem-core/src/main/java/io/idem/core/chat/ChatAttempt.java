package io.idem.core.chat;

import io.idem.core.domain.Billable;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One attempt of one call at one model: what the audit records durably and the failover report
 * shows.
 *
 * @param seq the attempt's position in its call, from 1
 * @param firstToken for a stream, how long the first content token took
 */
public record ChatAttempt(
        ChatCaller caller,
        String requestedModel,
        boolean stream,
        int seq,
        ChatModel model,
        AttemptResult result,
        Instant startedAt,
        Duration latency,
        Optional<Duration> firstToken) {
    public ChatAttempt {
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(requestedModel, "requestedModel");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(firstToken, "firstToken");
    }

    public Instant finishedAt() {
        return startedAt.plus(latency);
    }

    /** What {@code attempts} may have cost: those billed or of unknown billing (what {@code max_cost_usd} caps). */
    public static BigDecimal spent(List<ChatAttempt> attempts) {
        return attempts.stream()
                .filter(a -> a.result().billable() != Billable.NO)
                .map(a -> a.result().costUsd())
                .reduce(BigDecimal.ZERO, BigDecimal::add);
    }
}
