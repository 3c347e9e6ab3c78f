package io.idem.core.budget;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

/** Where spend is read from (the attempt audit) and budget thresholds are announced. */
public interface SpendStore {
    /** Billed plus at-risk (billable unknown) cost of a provider's attempts since {@code since}. */
    BigDecimal providerSpendSince(String provider, Instant since);

    /** Records a threshold event once per provider, type and day; {@code false} if already recorded. */
    boolean announceOnce(String provider, String type, LocalDate day, BigDecimal spent, BigDecimal budget, Instant now);
}
