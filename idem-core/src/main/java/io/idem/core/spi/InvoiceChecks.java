package io.idem.core.spi;

import io.idem.core.invoice.InvoiceCheck;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Idem's audit per provider and day, and the invoice checks made against vendors' reports. Thread-safe. */
public interface InvoiceChecks {
    /**
     * What the audit says {@code provider} cost on {@code day} (UTC), jobs and chat, and the vendor
     * request ids it knows from the day before to the day after (a call started just before midnight
     * may be charged just after it).
     */
    Audit audit(String provider, LocalDate day);

    /**
     * Claims the check of {@code provider} and {@code day} for this caller: {@code false} when it was
     * done already, or another node's claim is younger than {@code staleAfter}.
     */
    boolean claim(String provider, LocalDate day, Instant now, Duration staleAfter);

    /** Gives up a claim whose check could not be made now, so a later pass tries again. */
    void release(String provider, LocalDate day);

    /** Stores the result (replacing an earlier one of the same day); with {@code drift}, also the provider event {@code invoice.drift}. */
    void record(InvoiceCheck check, boolean drift);

    /** The latest checks, newest day first; of one provider when given. */
    List<InvoiceCheck> recent(Optional<String> provider, int limit);

    /** @param attempts how many attempts make up {@code usd} */
    record Audit(BigDecimal usd, long attempts, Set<String> requestIds) {
        public Audit {
            requestIds = Set.copyOf(requestIds);
        }
    }
}
