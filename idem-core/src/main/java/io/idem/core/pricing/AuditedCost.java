package io.idem.core.pricing;

import io.idem.core.outcome.Outcome;
import java.math.BigDecimal;

/**
 * What one attempt costs as the audit counts it: the vendor's stated cost of a confirmed result,
 * else the expected cost (the configured price) for an attempt that billed or may have billed, and
 * nothing for one known not to have billed. The settle, the spend ledger and the metrics all count
 * it so, which is why the audit adds up to the vendor's invoice.
 */
public final class AuditedCost {
    private AuditedCost() {}

    public static BigDecimal of(Outcome outcome, BigDecimal expected) {
        return switch (outcome.billable()) {
            case YES -> outcome instanceof Outcome.Confirmed c && c.costUsd() != null ? c.costUsd() : expected;
            case UNKNOWN -> expected;
            case NO -> BigDecimal.ZERO;
        };
    }
}
