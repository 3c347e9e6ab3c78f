package io.idem.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idem.core.alert.AlertThresholds;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code alerts.rules}: defaults, partial overrides, rules turned off, and mistakes named. */
class AlertRulesConfigTest {
    private static AlertThresholds rules(String json) {
        String alerts = "{\"channels\": [], \"rules\": " + json + "}";
        return new ConfigLoader(Map.of("ALERTS_JSON", alerts))
                .load(Optional.empty())
                .alerts()
                .rules();
    }

    @Test
    void withoutRulesEveryRuleRunsWithItsDefaults() {
        var config = new ConfigLoader(Map.of()).load(Optional.empty());
        assertThat(config.alerts().rules()).isEqualTo(AlertThresholds.DEFAULTS);
    }

    @Test
    void aMappingChangesOnlyWhatItNamesAndFalseTurnsARuleOff() {
        AlertThresholds rules = rules("""
                {"error_rate": {"threshold": 0.2}, "cost_drift": false, "money_at_risk_usd": 2.5,
                 "review_age_seconds": 600, "static_tier": false, "evaluate_every_seconds": 30}
                """);
        assertThat(rules.errorRate()).hasValueSatisfying(share -> {
            assertThat(share.threshold()).isEqualTo(0.2);
            assertThat(share.window()).isEqualTo(Duration.ofMinutes(5));
            assertThat(share.minCalls()).isEqualTo(10);
        });
        assertThat(rules.fallbackShare()).isEqualTo(AlertThresholds.DEFAULTS.fallbackShare());
        assertThat(rules.costDrift()).isEmpty();
        assertThat(rules.moneyAtRiskUsd()).contains(new BigDecimal("2.5"));
        assertThat(rules.reviewAge()).contains(Duration.ofMinutes(10));
        assertThat(rules.staticTier()).isFalse();
        assertThat(rules.withStaticProviders(java.util.Set.of("static")).staticProviders())
                .isEmpty();
        assertThat(rules.evaluateEvery()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void everyMistakeNamesItsSetting() {
        assertThatThrownBy(() -> rules("{\"error_rate\": {\"threshold\": 2}}"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("alerts.rules.error_rate.threshold");
        assertThatThrownBy(() -> rules("{\"error_rates\": {}}")).hasMessageContaining("alerts.rules.error_rates");
        assertThatThrownBy(() -> rules("{\"fallback_share\": {\"window\": 60}}"))
                .hasMessageContaining("alerts.rules.fallback_share.window");
        assertThatThrownBy(() -> rules("{\"cost_drift\": {\"factor\": 1}}")).hasMessageContaining("cost_drift.factor");
        assertThatThrownBy(() -> rules("{\"money_at_risk_usd\": \"ten\"}")).hasMessageContaining("money_at_risk_usd");
        assertThatThrownBy(() -> rules("{\"static_tier\": \"yes\"}")).hasMessageContaining("static_tier");
        assertThatThrownBy(() -> rules("[1]")).hasMessageContaining("alerts.rules must be a mapping");
    }
}
