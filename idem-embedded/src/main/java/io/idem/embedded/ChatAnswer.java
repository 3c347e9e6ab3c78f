package io.idem.embedded;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer to a chat call, with the failover report: which model served it and what each attempt
 * before it did. Immutable and thread-safe.
 *
 * @param servedModel the chat model that answered
 * @param finishReason the vendor's reason ({@code stop}, {@code length}, …)
 * @param degradationNotice present when the static last-resort tier answered: why the answer is a
 *     fallback
 * @param attempts every attempt made, in order, the serving one last
 */
public record ChatAnswer(
        String text,
        String servedModel,
        String finishReason,
        Optional<String> degradationNotice,
        List<Attempt> attempts) {
    public ChatAnswer {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(servedModel, "servedModel");
        Objects.requireNonNull(finishReason, "finishReason");
        Objects.requireNonNull(degradationNotice, "degradationNotice");
        attempts = List.copyOf(attempts);
    }

    /**
     * One attempt at one model, as the chat audit records it. Immutable.
     *
     * @param outcome {@code served}, {@code unavailable}, {@code rejected}, {@code unconfirmed},
     *     {@code adapter_fault} or {@code skipped}
     * @param httpStatus the vendor's HTTP status, 0 when none was read
     * @param billable {@code yes}, {@code no} or {@code unknown}
     */
    public record Attempt(
            String model,
            String provider,
            String outcome,
            int httpStatus,
            long latencyMs,
            String billable,
            BigDecimal costUsd) {}
}
