package io.idem.core.alert;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The numbers the threshold rules watch, read from the shared database at one moment, so every
 * node sees the same.
 *
 * @param calls per provider, job and chat attempts that ended in the error-rate window
 * @param requests jobs and chat calls with an attempt in the fallback window, and how many needed more than one
 * @param spend per provider, today's spend (UTC) and its trailing daily average
 * @param served per provider, chat answers served in the static window
 */
public record Signals(
        Map<String, Counts> calls,
        Counts requests,
        Map<String, DailySpend> spend,
        BigDecimal moneyAtRiskUsd,
        Duration oldestReview,
        Map<String, Long> served) {
    public Signals {
        calls = Map.copyOf(calls);
        Objects.requireNonNull(requests, "requests");
        spend = Map.copyOf(spend);
        Objects.requireNonNull(moneyAtRiskUsd, "moneyAtRiskUsd");
        Objects.requireNonNull(oldestReview, "oldestReview");
        served = Map.copyOf(served);
    }

    /** How many, and how many of them went wrong. */
    public record Counts(long total, long bad) {
        public static final Counts NONE = new Counts(0, 0);

        double share() {
            return total == 0 ? 0 : (double) bad / total;
        }
    }

    /** @param trailingAverage the average day of the trailing days; empty history: zero */
    public record DailySpend(BigDecimal today, BigDecimal trailingAverage) {}

    /**
     * What to read: the three windows, how many complete UTC days before today make the average, and
     * the providers (every configured one, job and chat) to read them for.
     */
    public record Query(
            Duration errorWindow,
            Duration fallbackWindow,
            Duration staticWindow,
            int trailingDays,
            java.util.Set<String> providers) {
        public Query {
            providers = java.util.Set.copyOf(providers);
        }
    }
}
