package io.idem.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.alert.AlertThresholds;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads {@code alerts.rules}: each rule is on with its defaults unless set; {@code false} turns one
 * off, and a mapping changes only the fields it names. Every mistake names its setting.
 */
final class AlertRulesReader {
    private static final String WHERE = "alerts.rules.";
    private static final Set<String> FIELDS = Set.of(
            "evaluate_every_seconds",
            "error_rate",
            "fallback_share",
            "cost_drift",
            "money_at_risk_usd",
            "review_age_seconds",
            "static_tier");
    private static final Set<String> SHARE_FIELDS = Set.of("threshold", "window_seconds", "min_calls");
    private static final Set<String> DRIFT_FIELDS = Set.of("factor", "min_usd", "trailing_days");

    private AlertRulesReader() {}

    static AlertThresholds read(JsonNode node) {
        AlertThresholds d = AlertThresholds.DEFAULTS;
        if (node == null || node.isMissingNode() || node.isNull()) {
            return d;
        }
        if (!node.isObject()) {
            throw new ConfigException("alerts.rules must be a mapping");
        }
        known(node, FIELDS, "alerts.rules");
        try {
            return new AlertThresholds(
                    rule(
                            node,
                            "error_rate",
                            d.errorRate(),
                            n -> share(n, "error_rate", d.errorRate().orElseThrow())),
                    rule(
                            node,
                            "fallback_share",
                            d.fallbackShare(),
                            n -> share(n, "fallback_share", d.fallbackShare().orElseThrow())),
                    rule(
                            node,
                            "cost_drift",
                            d.costDrift(),
                            n -> drift(n, d.costDrift().orElseThrow())),
                    rule(
                            node,
                            "money_at_risk_usd",
                            d.moneyAtRiskUsd(),
                            n -> BigDecimal.valueOf(number(n, "money_at_risk_usd", 0.01, 1_000_000_000))),
                    rule(
                            node,
                            "review_age_seconds",
                            d.reviewAge(),
                            n -> Duration.ofSeconds((long) number(n, "review_age_seconds", 1, 30 * 86_400))),
                    flag(node.path("static_tier")),
                    Set.of(),
                    node.has("evaluate_every_seconds")
                            ? Duration.ofSeconds((long)
                                    number(node.get("evaluate_every_seconds"), "evaluate_every_seconds", 1, 3600))
                            : d.evaluateEvery());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(WHERE + e.getMessage());
        }
    }

    private static <T> Optional<T> rule(JsonNode node, String field, Optional<T> fallback, Function<JsonNode, T> read) {
        JsonNode value = node.path(field);
        if (value.isMissingNode() || value.isBoolean() && value.booleanValue()) {
            return fallback;
        }
        if (value.isBoolean() || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(read.apply(value));
    }

    private static boolean flag(JsonNode value) {
        if (value.isMissingNode()) {
            return true;
        }
        if (!value.isBoolean()) {
            throw new ConfigException(WHERE + "static_tier must be true or false");
        }
        return value.booleanValue();
    }

    private static AlertThresholds.Share share(JsonNode node, String rule, AlertThresholds.Share d) {
        mapping(node, rule, SHARE_FIELDS);
        return new AlertThresholds.Share(
                node.has("threshold") ? number(node.get("threshold"), rule + ".threshold", 0.001, 1) : d.threshold(),
                node.has("window_seconds")
                        ? Duration.ofSeconds(
                                (long) number(node.get("window_seconds"), rule + ".window_seconds", 10, 86_400))
                        : d.window(),
                node.has("min_calls")
                        ? (int) number(node.get("min_calls"), rule + ".min_calls", 1, 1_000_000)
                        : d.minCalls());
    }

    private static AlertThresholds.CostDrift drift(JsonNode node, AlertThresholds.CostDrift d) {
        mapping(node, "cost_drift", DRIFT_FIELDS);
        return new AlertThresholds.CostDrift(
                node.has("factor") ? number(node.get("factor"), "cost_drift.factor", 1.01, 1000) : d.factor(),
                node.has("min_usd")
                        ? BigDecimal.valueOf(number(node.get("min_usd"), "cost_drift.min_usd", 0, 1_000_000_000))
                        : d.minUsd(),
                node.has("trailing_days")
                        ? (int) number(node.get("trailing_days"), "cost_drift.trailing_days", 1, 90)
                        : d.trailingDays());
    }

    private static void mapping(JsonNode node, String rule, Set<String> fields) {
        if (!node.isObject()) {
            throw new ConfigException(WHERE + rule + " must be true, false or a mapping of " + fields);
        }
        known(node, fields, "alerts.rules." + rule);
    }

    private static void known(JsonNode node, Set<String> fields, String where) {
        node.fieldNames().forEachRemaining(field -> {
            if (!fields.contains(field)) {
                throw new ConfigException(where + "." + field + " is not a known setting; known: " + fields);
            }
        });
    }

    private static double number(JsonNode value, String field, double min, double max) {
        if (!value.isNumber()
                || !Double.isFinite(value.doubleValue())
                || value.doubleValue() < min
                || value.doubleValue() > max) {
            throw new ConfigException(WHERE + field + " must be a number in " + min + ".." + max + ", was " + value);
        }
        return value.doubleValue();
    }
}
