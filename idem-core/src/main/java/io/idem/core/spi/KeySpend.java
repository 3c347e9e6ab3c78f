package io.idem.core.spi;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * What one API key has spent, read from the attempt audit of its jobs and chat calls: billed plus
 * at-risk (billable unknown) cost, so a key cannot outrun its budget while calls are unsettled.
 * Reads only; thread-safe.
 */
public interface KeySpend {
    /** Cost of the jobs created and chat calls started with key {@code keyId} since {@code since}. */
    BigDecimal keySpendSince(UUID keyId, Instant since);
}
