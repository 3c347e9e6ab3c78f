package io.idem.core.chat;

import io.idem.core.domain.Billable;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How one chat attempt ended, as the report and the audit show it.
 *
 * @param outcome {@code served}, {@code unavailable}, {@code rejected}, {@code unconfirmed}, {@code
 *     adapter_fault} or {@code skipped} (the breaker or the provider's budget kept it from going out)
 * @param usage the vendor's counts, else our estimate (prompt from its length, completion from what
 *     we saw)
 * @param reason the failure in {@code redundancy.on}'s vocabulary, when it has one
 * @param retryAfter how long the vendor asked to be left alone, when it refused with a 429 and said
 */
public record AttemptResult(
        String outcome,
        Optional<String> errorCode,
        Optional<String> message,
        int httpStatus,
        Optional<String> providerRequestId,
        TokenUsage usage,
        Billable billable,
        BigDecimal costUsd,
        Optional<Trigger> reason,
        Optional<Duration> retryAfter) {
    public static final String SERVED = "served";
    public static final String SKIPPED = "skipped";

    public AttemptResult {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(errorCode, "errorCode");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(providerRequestId, "providerRequestId");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(billable, "billable");
        Objects.requireNonNull(costUsd, "costUsd");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(retryAfter, "retryAfter");
    }

    public boolean served() {
        return outcome.equals(SERVED);
    }
}
