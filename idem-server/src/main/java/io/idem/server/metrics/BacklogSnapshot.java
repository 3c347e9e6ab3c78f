package io.idem.server.metrics;

import io.idem.core.spi.BacklogReads;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * The backlog gauges over one database read at most every {@link #MAX_AGE}: a scrape reads six
 * gauges, and several scrapers may ask at once. A failed read keeps the last values (and NaN before
 * the first), so a database hiccup shows as a flat line, not a failed scrape. Thread-safe.
 */
final class BacklogSnapshot implements Metrics.BacklogGauge {
    static final Duration MAX_AGE = Duration.ofSeconds(5);

    private final BacklogReads reads;
    private final InstantSource clock;
    private BacklogReads.Backlog last;
    private Instant readAt = Instant.MIN;

    BacklogSnapshot(BacklogReads reads, InstantSource clock) {
        this.reads = reads;
        this.clock = clock;
    }

    private synchronized BacklogReads.Backlog current() {
        Instant now = clock.instant();
        if (last == null || readAt.plus(MAX_AGE).isBefore(now)) {
            try {
                last = reads.backlog();
                readAt = now;
            } catch (RuntimeException e) {
                // keep the last values; the next scrape tries again
            }
        }
        return last;
    }

    @Override
    public double count(String state) {
        var backlog = current();
        if (backlog == null) {
            return Double.NaN;
        }
        return switch (state) {
            case "queued" -> backlog.queued();
            case "running" -> backlog.running();
            case "manual_review" -> backlog.inReview();
            default -> throw new IllegalArgumentException("no backlog count for state '" + state + "'");
        };
    }

    @Override
    public double oldestReviewAgeSeconds() {
        var backlog = current();
        if (backlog == null) {
            return Double.NaN;
        }
        return backlog.oldestReviewSince()
                .map(since ->
                        Math.max(0, Duration.between(since, clock.instant()).toMillis() / 1000.0))
                .orElse(0.0);
    }

    @Override
    public double moneyAtRiskUsd() {
        var backlog = current();
        return backlog == null ? Double.NaN : backlog.moneyAtRiskUsd().doubleValue();
    }

    @Override
    public double unknownAttempts() {
        var backlog = current();
        return backlog == null ? Double.NaN : backlog.unknownAttempts();
    }

    /** Gauges for {@code reads}, cached. */
    static Metrics.BacklogGauge over(BacklogReads reads, InstantSource clock) {
        return new BacklogSnapshot(reads, clock);
    }
}
