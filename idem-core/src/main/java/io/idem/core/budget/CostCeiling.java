package io.idem.core.budget;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * A request's own cost ceiling ({@code max_cost_usd}): a candidate may be tried only while what the
 * request may already have cost (its attempts billed or unknown, at actual or expected cost) plus
 * this candidate's expected cost stays within the ceiling. A candidate past it is skipped with
 * reason {@value #OVER}.
 */
public final class CostCeiling {
    /** The reason a candidate past the ceiling is skipped with. */
    public static final String OVER = "over_max_cost";
    /** The largest ceiling accepted, in USD. */
    public static final BigDecimal MAX_USD = new BigDecimal("1000000");
    /** The most decimal places a ceiling may have (the audit keeps micro-dollars). */
    public static final int MAX_SCALE = 6;

    private CostCeiling() {}

    /** Whether a candidate expected to cost {@code expected} fits under {@code ceiling}. */
    public static boolean fits(Optional<BigDecimal> ceiling, BigDecimal soFar, BigDecimal expected) {
        return ceiling.map(max -> soFar.add(expected).compareTo(max) <= 0).orElse(true);
    }

    /** Whether {@code value} is an acceptable ceiling: positive, at most {@link #MAX_USD}, at most 6 decimals. */
    public static boolean valid(BigDecimal value) {
        return value.signum() > 0
                && value.compareTo(MAX_USD) <= 0
                && value.stripTrailingZeros().scale() <= MAX_SCALE;
    }
}
