package io.idem.core.spi;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * One chat attempt as the audit keeps it ({@code chat_attempts}): no prompt and no answer text,
 * only who called, which model served, how the vendor answered, what it cost and when.
 *
 * @param id the audit row's id, the attempts' order within an instant
 * @param seq the attempt's place in its call's chain (0 first)
 */
public record StoredChatAttempt(
        long id,
        UUID callId,
        int seq,
        String owner,
        Optional<UUID> apiKeyId,
        Route route,
        Answer answer,
        Bill bill,
        Timing timing) {

    public StoredChatAttempt {
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(apiKeyId, "apiKeyId");
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(bill, "bill");
        Objects.requireNonNull(timing, "timing");
    }

    /** The lane, the model asked for, the model that was tried and who serves it. */
    public record Route(
            String lane, String requestedModel, String model, String provider, String vendorModel, boolean stream) {}

    /**
     * How it ended: the outcome ({@code served}, {@code unavailable}, …), the vendor's error code and
     * redacted message, the failover trigger, the HTTP status (0: none) and the vendor's request id.
     */
    public record Answer(
            String outcome,
            Optional<String> errorCode,
            Optional<String> errorMessage,
            Optional<String> reason,
            int httpStatus,
            Optional<String> providerRequestId) {}

    /** Tokens counted, whether it billed ({@code yes}, {@code no}, {@code unknown}) and its cost. */
    public record Bill(
            long promptTokens, long completionTokens, boolean usageEstimated, String billable, BigDecimal costUsd) {}

    /** How long it took (to the first token, for a stream) and when it ran. */
    public record Timing(long latencyMs, Optional<Long> firstTokenMs, Instant startedAt, Instant finishedAt) {}
}
