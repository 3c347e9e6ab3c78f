package io.idem.core.alert;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The rules that watch numbers rather than events ({@code alerts.rules}); an empty one is off.
 *
 * @param errorRate a provider failing this share of its calls (unavailable, unconfirmed, adapter
 *     faults; not the caller's own mistakes) over the window
 * @param fallbackShare this share of requests (jobs and chat calls) needing more than one attempt
 * @param costDrift a provider's spend today (UTC) against its trailing daily average
 * @param moneyAtRiskUsd the expected cost of attempts whose billing is unknown, cluster-wide
 * @param reviewAge the longest wait of a job in the review queue
 * @param staticTier whether an answer from the static tier is an incident
 * @param staticProviders the static tier's providers (from the configuration, not the rules block)
 * @param evaluateEvery how often each node reads the signals (aggregates over the attempt tables)
 */
public record AlertThresholds(
        Optional<Share> errorRate,
        Optional<Share> fallbackShare,
        Optional<CostDrift> costDrift,
        Optional<BigDecimal> moneyAtRiskUsd,
        Optional<Duration> reviewAge,
        boolean staticTier,
        Set<String> staticProviders,
        Duration evaluateEvery) {
    /** What runs when {@code alerts.rules} says nothing. */
    public static final AlertThresholds DEFAULTS = new AlertThresholds(
            Optional.of(new Share(0.5, Duration.ofMinutes(5), 10)),
            Optional.of(new Share(0.5, Duration.ofMinutes(15), 20)),
            Optional.of(new CostDrift(3.0, new BigDecimal("1"), 7)),
            Optional.of(new BigDecimal("10")),
            Optional.of(Duration.ofMinutes(30)),
            true,
            Set.of(),
            Duration.ofSeconds(10));

    /** The window over which any static-tier answer is an incident. */
    static final Duration STATIC_WINDOW = Duration.ofMinutes(5);

    public AlertThresholds {
        Objects.requireNonNull(errorRate, "errorRate");
        Objects.requireNonNull(fallbackShare, "fallbackShare");
        Objects.requireNonNull(costDrift, "costDrift");
        Objects.requireNonNull(moneyAtRiskUsd, "moneyAtRiskUsd");
        Objects.requireNonNull(reviewAge, "reviewAge");
        staticProviders = Set.copyOf(staticProviders);
        if (evaluateEvery.isNegative() || evaluateEvery.isZero()) {
            throw new IllegalArgumentException("the evaluation interval must be positive, was " + evaluateEvery);
        }
    }

    /** The same rules knowing {@code providers} as the static tier (watched only if {@link #staticTier}). */
    public AlertThresholds withStaticProviders(Set<String> providers) {
        return new AlertThresholds(
                errorRate,
                fallbackShare,
                costDrift,
                moneyAtRiskUsd,
                reviewAge,
                staticTier,
                staticTier ? providers : Set.of(),
                evaluateEvery);
    }

    /** The windows and history the signals must be read over, for {@code providers}. */
    public Signals.Query query(Set<String> providers) {
        return new Signals.Query(
                errorRate.map(Share::window).orElse(STATIC_WINDOW),
                fallbackShare.map(Share::window).orElse(STATIC_WINDOW),
                STATIC_WINDOW,
                costDrift.map(CostDrift::trailingDays).orElse(0),
                providers);
    }

    /**
     * A share over a window.
     *
     * @param minCalls fewer calls than this in the window say nothing (two failures of three are no outage)
     */
    public record Share(double threshold, Duration window, int minCalls) {
        public Share {
            if (!(threshold > 0 && threshold <= 1)) {
                throw new IllegalArgumentException("a share threshold must be in (0, 1], was " + threshold);
            }
            if (window.isNegative() || window.isZero()) {
                throw new IllegalArgumentException("a window must be positive, was " + window);
            }
            if (minCalls < 1) {
                throw new IllegalArgumentException("min_calls must be at least 1, was " + minCalls);
            }
        }
    }

    /**
     * Today's spend at {@code factor} times the trailing daily average or more, and at least {@code
     * minUsd} (a provider with no history has no average, so it never drifts).
     */
    public record CostDrift(double factor, BigDecimal minUsd, int trailingDays) {
        public CostDrift {
            if (!(factor > 1)) {
                throw new IllegalArgumentException("a drift factor must be above 1, was " + factor);
            }
            Objects.requireNonNull(minUsd, "minUsd");
            if (trailingDays < 1 || trailingDays > 90) {
                throw new IllegalArgumentException("trailing_days must be 1..90, was " + trailingDays);
            }
        }
    }
}
