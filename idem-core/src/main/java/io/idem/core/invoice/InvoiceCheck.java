package io.idem.core.invoice;

import io.idem.core.spi.UsageAnswer;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One provider's day compared with its vendor's own report.
 *
 * @param auditUsd what Idem's audit says the day cost: billed attempts, and attempts of unknown
 *     billing at their expected cost, jobs and chat
 * @param vendorUsd what the vendor's report says it charged
 * @param captureRate audit ÷ vendor (empty when the vendor charged nothing but the audit counts something)
 * @param unmatched the vendor's charges Idem has no attempt for (no request id, or one the audit
 *     does not know), at most {@link #MAX_UNMATCHED_KEPT} of them
 * @param unmatchedCount how many there were in all
 * @param itemized whether the vendor reported each charge (else only a total: nothing to match)
 */
public record InvoiceCheck(
        String provider,
        LocalDate day,
        BigDecimal auditUsd,
        BigDecimal vendorUsd,
        Optional<BigDecimal> captureRate,
        List<UsageAnswer.Charge> unmatched,
        int unmatchedCount,
        boolean itemized,
        Instant checkedAt) {
    public static final int MAX_UNMATCHED_KEPT = 100;

    public InvoiceCheck {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(day, "day");
        Objects.requireNonNull(auditUsd, "auditUsd");
        Objects.requireNonNull(vendorUsd, "vendorUsd");
        Objects.requireNonNull(captureRate, "captureRate");
        unmatched = List.copyOf(unmatched);
        Objects.requireNonNull(checkedAt, "checkedAt");
    }

    /** Whether the capture rate lies outside {@code 1 ± tolerance}, or is undefined while money was counted. */
    public boolean drifts(double tolerance) {
        return captureRate
                .map(rate -> Math.abs(rate.doubleValue() - 1) > tolerance)
                .orElse(auditUsd.signum() > 0);
    }
}
