package io.idem.core.spi;

import java.util.UUID;

/**
 * An attempt about to be written ahead of its provider call.
 *
 * @param expectedCostUsd what the call costs if it is billed: at risk while the outcome is unknown
 */
public record AttemptDraft(
        UUID attemptId, String provider, String vendorModel, int round, java.math.BigDecimal expectedCostUsd) {
    public AttemptDraft(UUID attemptId, String provider, String vendorModel, int round) {
        this(attemptId, provider, vendorModel, round, java.math.BigDecimal.ZERO);
    }
}
