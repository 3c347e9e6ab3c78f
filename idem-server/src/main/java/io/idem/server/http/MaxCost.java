package io.idem.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.idem.core.budget.CostCeiling;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code max_cost_usd} field of a job or chat request: the request's own cost ceiling, a
 * positive amount in USD of at most {@link CostCeiling#MAX_USD} with at most six decimals, given as a
 * JSON number or a decimal string. Anything else is {@code 400 invalid_max_cost_usd}.
 */
public final class MaxCost {
    public static final String FIELD = "max_cost_usd";

    private MaxCost() {}

    /** The ceiling in {@code body}, or empty when the field is absent or null. */
    public static Optional<BigDecimal> read(JsonNode body) {
        return read(body, Map.of());
    }

    /** As {@link #read(JsonNode)}, with {@code extra} fields in the refusal (an OpenAI error type, say). */
    public static Optional<BigDecimal> read(JsonNode body, Map<String, Object> extra) {
        JsonNode node = body.get(FIELD);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        BigDecimal value = null;
        if (node.isNumber()
                && (node.isIntegralNumber() || node.isBigDecimal() || Double.isFinite(node.doubleValue()))) {
            value = node.decimalValue();
        } else if (node.isTextual() && node.textValue().matches("[0-9]{1,10}(\\.[0-9]{1,10})?")) {
            value = new BigDecimal(node.textValue());
        }
        if (value == null || !CostCeiling.valid(value)) {
            throw new ApiError(
                    400,
                    "invalid_max_cost_usd",
                    FIELD + " must be a positive amount in USD of at most " + CostCeiling.MAX_USD.toPlainString()
                            + " with at most " + CostCeiling.MAX_SCALE + " decimals",
                    extra);
        }
        return Optional.of(value.stripTrailingZeros());
    }
}
