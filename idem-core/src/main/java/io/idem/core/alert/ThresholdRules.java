package io.idem.core.alert;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which watched numbers are over their thresholds right now. Pure: the same signals give the same
 * breaches on every node; {@link IncidentWatch} turns them into incidents and alerts.
 */
public final class ThresholdRules {
    public static final String ERROR_RATE = "provider.error_rate";
    public static final String FALLBACK_SHARE = "fallback.share";
    public static final String COST_DRIFT = "cost.drift";
    public static final String MONEY_AT_RISK = "money.at_risk";
    public static final String REVIEW_STALE = "review.stale";
    public static final String STATIC_TIER = "tier.static_active";
    /** The subject of a rule about the whole cluster rather than one provider. */
    public static final String ALL = "all";

    private final AlertThresholds thresholds;

    public ThresholdRules(AlertThresholds thresholds) {
        this.thresholds = thresholds;
    }

    /** A rule that holds for a subject, and the line that says so. */
    public record Breach(String rule, String subject, String text) {}

    public List<Breach> breaches(Signals signals) {
        List<Breach> out = new ArrayList<>();
        thresholds
                .errorRate()
                .ifPresent(share -> signals.calls().forEach((provider, counts) -> {
                    if (over(counts, share)) {
                        out.add(new Breach(
                                ERROR_RATE,
                                provider,
                                "provider " + provider + " failed " + percent(counts) + " of its calls (" + counts.bad()
                                        + " of " + counts.total() + ") over the last "
                                        + AlertRules.human(share.window())));
                    }
                }));
        thresholds.fallbackShare().ifPresent(share -> {
            Signals.Counts requests = signals.requests();
            if (over(requests, share)) {
                out.add(new Breach(
                        FALLBACK_SHARE,
                        ALL,
                        percent(requests) + " of requests needed a fallback (" + requests.bad() + " of "
                                + requests.total() + ") over the last " + AlertRules.human(share.window())));
            }
        });
        thresholds.costDrift().ifPresent(drift -> drifts(signals.spend(), drift, out));
        thresholds.moneyAtRiskUsd().ifPresent(limit -> {
            if (signals.moneyAtRiskUsd().compareTo(limit) >= 0) {
                out.add(new Breach(
                        MONEY_AT_RISK,
                        ALL,
                        "$" + usd(signals.moneyAtRiskUsd()) + " is at risk in attempts whose billing is unknown"
                                + " (limit $" + usd(limit) + "); see the review queue"));
            }
        });
        thresholds.reviewAge().ifPresent(limit -> {
            if (signals.oldestReview().compareTo(limit) >= 0) {
                out.add(new Breach(
                        REVIEW_STALE,
                        ALL,
                        "a job has waited " + AlertRules.human(signals.oldestReview())
                                + " in the review queue for reconcile or an operator"));
            }
        });
        for (String provider : thresholds.staticProviders()) {
            long served = signals.served().getOrDefault(provider, 0L);
            if (served > 0) {
                out.add(new Breach(
                        STATIC_TIER,
                        provider,
                        "the static tier (" + provider + ") is answering chat: " + served
                                + " answers in the last " + AlertRules.human(AlertThresholds.STATIC_WINDOW)
                                + "; every model before it failed"));
            }
        }
        return out;
    }

    private static void drifts(
            Map<String, Signals.DailySpend> spend, AlertThresholds.CostDrift drift, List<Breach> out) {
        spend.forEach((provider, day) -> {
            BigDecimal average = day.trailingAverage();
            if (average.signum() <= 0 || day.today().compareTo(drift.minUsd()) < 0) {
                return;
            }
            BigDecimal factor = day.today().divide(average, 2, RoundingMode.HALF_UP);
            if (factor.doubleValue() >= drift.factor()) {
                out.add(new Breach(
                        COST_DRIFT,
                        provider,
                        "provider " + provider + " has spent $" + usd(day.today()) + " today (UTC), "
                                + factor.toPlainString() + "x its average of $" + usd(average) + " a day over the last "
                                + drift.trailingDays() + " days"));
            }
        });
    }

    /** The line of a resolved incident. */
    public static String recovered(String rule, String subject, Duration lasted) {
        String what = switch (rule) {
            case ERROR_RATE -> "provider " + subject + "'s error rate is back under its threshold";
            case FALLBACK_SHARE -> "the fallback share is back under its threshold";
            case COST_DRIFT -> "provider " + subject + "'s spend today is back within its usual range";
            case MONEY_AT_RISK -> "money at risk is back under its limit";
            case REVIEW_STALE -> "no job waits too long in the review queue any more";
            case STATIC_TIER -> "the static tier (" + subject + ") stopped answering";
            default -> rule + " for " + subject + " resolved";
        };
        return what + ", after " + AlertRules.human(lasted);
    }

    private static boolean over(Signals.Counts counts, AlertThresholds.Share share) {
        return counts.total() >= share.minCalls() && counts.share() >= share.threshold();
    }

    private static String percent(Signals.Counts counts) {
        return Math.round(counts.share() * 100) + " %";
    }

    private static String usd(BigDecimal amount) {
        return amount.setScale(2, RoundingMode.HALF_UP).toPlainString();
    }
}
