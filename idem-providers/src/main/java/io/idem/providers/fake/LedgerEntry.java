package io.idem.providers.fake;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;

/**
 * One line of the fake vendor's invoice: a generation it billed.
 *
 * @param reference the caller's reference sent with the generation, or {@code null} if none was
 */
public record LedgerEntry(String id, String reference, String model, BigDecimal costUsd, Instant billedAt) {
    public LedgerEntry {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(costUsd, "costUsd");
        Objects.requireNonNull(billedAt, "billedAt");
    }
}
