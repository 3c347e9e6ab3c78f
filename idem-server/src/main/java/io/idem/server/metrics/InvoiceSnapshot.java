package io.idem.server.metrics;

import io.idem.core.invoice.InvoiceCheck;
import io.idem.core.spi.InvoiceChecks;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The latest invoice check per provider, read at most every {@link #MAX_AGE} (a check runs once a
 * day). A failed read keeps the last values. Thread-safe.
 */
final class InvoiceSnapshot {
    static final Duration MAX_AGE = Duration.ofMinutes(1);

    private final InvoiceChecks checks;
    private final InstantSource clock;
    private Map<String, InvoiceCheck> latest = Map.of();
    private Instant readAt = Instant.MIN;

    InvoiceSnapshot(InvoiceChecks checks, InstantSource clock) {
        this.checks = checks;
        this.clock = clock;
    }

    /** The capture rate of the provider's latest checked day; NaN when it has none. */
    synchronized double captureRate(String provider) {
        Instant now = clock.instant();
        if (readAt.plus(MAX_AGE).isBefore(now)) {
            try {
                Map<String, InvoiceCheck> fresh = new HashMap<>();
                for (InvoiceCheck check : checks.recent(Optional.empty(), 500)) {
                    fresh.putIfAbsent(check.provider(), check);
                }
                latest = fresh;
                readAt = now;
            } catch (RuntimeException e) {
                // keep the last values; the next scrape tries again
            }
        }
        InvoiceCheck check = latest.get(provider);
        return check == null
                ? Double.NaN
                : check.captureRate().map(r -> r.doubleValue()).orElse(Double.NaN);
    }
}
