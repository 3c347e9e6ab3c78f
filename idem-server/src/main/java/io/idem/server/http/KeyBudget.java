package io.idem.server.http;

import io.idem.core.spi.KeySpend;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The API key's own daily and monthly budget (DESIGN §6), over jobs and chat calls together: spent
 * means refused with 429 {@code budget_exceeded} before any provider is called. A gateway block,
 * never a reason to fail over. Days and months are UTC. Thread-safe.
 */
public final class KeyBudget {
    private final KeySpend spend;
    private final InstantSource clock;

    public KeyBudget(KeySpend spend, InstantSource clock) {
        this.spend = spend;
        this.clock = clock;
    }

    /** Refuses the caller whose key has spent a budget it carries. */
    public void check(Caller caller) {
        check(caller, Map.of());
    }

    /** As {@link #check(Caller)}, with {@code extra} fields in the refusal (an OpenAI error type, say). */
    public void check(Caller caller, Map<String, Object> extra) {
        var key = caller.key();
        if (key.dailyBudgetUsd().isEmpty() && key.monthlyBudgetUsd().isEmpty()) {
            return;
        }
        LocalDate today = clock.instant().atZone(ZoneOffset.UTC).toLocalDate();
        key.dailyBudgetUsd()
                .ifPresent(limit -> refuseIfSpent(
                        caller,
                        limit,
                        today.atStartOfDay(ZoneOffset.UTC).toInstant(),
                        today.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant(),
                        "daily",
                        extra));
        key.monthlyBudgetUsd()
                .ifPresent(limit -> refuseIfSpent(
                        caller,
                        limit,
                        today.withDayOfMonth(1).atStartOfDay(ZoneOffset.UTC).toInstant(),
                        today.withDayOfMonth(1)
                                .plusMonths(1)
                                .atStartOfDay(ZoneOffset.UTC)
                                .toInstant(),
                        "monthly",
                        extra));
    }

    /** A spent budget is refused until its period turns: {@code Retry-After} says when (too long for an SDK to wait). */
    private void refuseIfSpent(
            Caller caller, BigDecimal limit, Instant since, Instant until, String period, Map<String, Object> extra) {
        BigDecimal spent = spend.keySpendSince(caller.key().id(), since);
        if (spent.compareTo(limit) >= 0) {
            Map<String, Object> detail = new LinkedHashMap<>(extra);
            detail.put("spent_usd", spent.toPlainString());
            detail.put("budget_usd", limit.toPlainString());
            throw new ApiError(
                    429,
                    "budget_exceeded",
                    "this key has spent its " + period + " budget of " + limit + " USD",
                    detail,
                    RetryAdvice.after(java.time.Duration.between(clock.instant(), until)));
        }
    }
}
