package io.idem.core.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The threshold rules as a table: each rule at, just under and without its threshold. */
class ThresholdRulesTest {
    private static final AlertThresholds RULES = AlertThresholds.DEFAULTS.withStaticProviders(Set.of("static"));
    private static final Signals QUIET =
            new Signals(Map.of(), Signals.Counts.NONE, Map.of(), BigDecimal.ZERO, Duration.ZERO, Map.of());

    private static Signals calls(Map<String, Signals.Counts> calls) {
        return new Signals(calls, Signals.Counts.NONE, Map.of(), BigDecimal.ZERO, Duration.ZERO, Map.of());
    }

    private static java.util.List<String> rules(AlertThresholds thresholds, Signals signals) {
        return new ThresholdRules(thresholds)
                .breaches(signals).stream()
                        .map(b -> b.rule() + ":" + b.subject())
                        .toList();
    }

    @Test
    void nothingHappeningBreaksNothing() {
        assertThat(rules(RULES, QUIET)).isEmpty();
    }

    @Test
    void theErrorRateNeedsItsShareAndItsCalls() {
        assertThat(rules(RULES, calls(Map.of("p", new Signals.Counts(10, 5)))))
                .containsExactly("provider.error_rate:p");
        assertThat(rules(RULES, calls(Map.of("p", new Signals.Counts(10, 4))))).isEmpty();
        assertThat(rules(RULES, calls(Map.of("p", new Signals.Counts(9, 9)))))
                .as("under min_calls")
                .isEmpty();
    }

    @Test
    void aRuleTurnedOffNeverBreaks() {
        AlertThresholds off = new AlertThresholds(
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                false,
                Set.of(),
                Duration.ofSeconds(10));
        Signals loud = new Signals(
                Map.of("p", new Signals.Counts(100, 100)),
                new Signals.Counts(100, 100),
                Map.of("p", new Signals.DailySpend(new BigDecimal("100"), BigDecimal.ONE)),
                new BigDecimal("1000"),
                Duration.ofDays(1),
                Map.of("static", 5L));
        assertThat(rules(off.withStaticProviders(Set.of("static")), loud)).isEmpty();
        assertThat(rules(RULES, loud))
                .containsExactlyInAnyOrder(
                        "provider.error_rate:p",
                        "fallback.share:all",
                        "cost.drift:p",
                        "money.at_risk:all",
                        "review.stale:all",
                        "tier.static_active:static");
    }

    @Test
    void costDriftNeedsItsFactorItsFloorAndAHistory() {
        Signals drift = new Signals(
                Map.of(),
                Signals.Counts.NONE,
                Map.of(
                        "thrice", new Signals.DailySpend(new BigDecimal("3.00"), new BigDecimal("1.00")),
                        "twice", new Signals.DailySpend(new BigDecimal("2.00"), new BigDecimal("1.00")),
                        "small", new Signals.DailySpend(new BigDecimal("0.90"), new BigDecimal("0.10")),
                        "new", new Signals.DailySpend(new BigDecimal("50"), BigDecimal.ZERO)),
                BigDecimal.ZERO,
                Duration.ZERO,
                Map.of());
        assertThat(rules(RULES, drift)).containsExactly("cost.drift:thrice");
    }

    @Test
    void aRecoveryNamesWhatEndedAndHowLongItLasted() {
        assertThat(ThresholdRules.recovered(ThresholdRules.ERROR_RATE, "primary", Duration.ofMinutes(12)))
                .isEqualTo("provider primary's error rate is back under its threshold, after 12 min");
    }
}
