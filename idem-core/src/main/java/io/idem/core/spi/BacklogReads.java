package io.idem.core.spi;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The few aggregates an operator watches live (the metrics gauges): how many jobs wait, how many
 * are parked and since when, and how much money is at risk. One cheap read over partial indexes,
 * meant to be taken every few seconds. Thread-safe.
 */
public interface BacklogReads {
    Backlog backlog();

    /**
     * @param oldestReviewSince when the longest-parked job entered review, if any is parked
     * @param unknownAttempts job and chat attempts whose billing is unknown (in flight or unconfirmed)
     * @param moneyAtRiskUsd their expected cost: what may be billed without a result to show for it
     */
    record Backlog(
            long queued,
            long running,
            long inReview,
            Optional<Instant> oldestReviewSince,
            long unknownAttempts,
            BigDecimal moneyAtRiskUsd) {
        public Backlog {
            Objects.requireNonNull(oldestReviewSince, "oldestReviewSince");
            Objects.requireNonNull(moneyAtRiskUsd, "moneyAtRiskUsd");
        }
    }
}
