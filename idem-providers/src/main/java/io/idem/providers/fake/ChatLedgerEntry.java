package io.idem.providers.fake;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;

/** One line of the fake vendor's chat invoice: a completion it billed, by its tokens. */
public record ChatLedgerEntry(
        String id, String model, long promptTokens, long completionTokens, BigDecimal costUsd, Instant billedAt) {
    public ChatLedgerEntry {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(costUsd, "costUsd");
        Objects.requireNonNull(billedAt, "billedAt");
    }
}
