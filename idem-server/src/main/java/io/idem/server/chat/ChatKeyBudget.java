package io.idem.server.chat;

import io.idem.core.spi.KeySpend;
import io.idem.server.api.ApiError;
import io.idem.server.auth.Caller;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * The key's own daily and monthly budget (DESIGN §6): spent means refused with 429 {@code
 * budget_exceeded} before any model is called. A gateway block, never a reason to fail over.
 */
final class ChatKeyBudget {
    private final KeySpend spend;
    private final InstantSource clock;

    ChatKeyBudget(KeySpend spend, InstantSource clock) {
        this.spend = spend;
        this.clock = clock;
    }

    void check(Caller caller) {
        var key = caller.key();
        if (key.dailyBudgetUsd().isEmpty() && key.monthlyBudgetUsd().isEmpty()) {
            return;
        }
        LocalDate today = clock.instant().atZone(ZoneOffset.UTC).toLocalDate();
        key.dailyBudgetUsd()
                .ifPresent(limit -> refuseIfSpent(
                        caller, limit, today.atStartOfDay(ZoneOffset.UTC).toInstant(), "daily"));
        key.monthlyBudgetUsd()
                .ifPresent(limit -> refuseIfSpent(
                        caller,
                        limit,
                        today.withDayOfMonth(1).atStartOfDay(ZoneOffset.UTC).toInstant(),
                        "monthly"));
    }

    private void refuseIfSpent(Caller caller, BigDecimal limit, Instant since, String period) {
        BigDecimal spent = spend.keySpendSince(caller.key().id(), since);
        if (spent.compareTo(limit) >= 0) {
            throw new ApiError(
                    429,
                    "budget_exceeded",
                    "this key has spent its " + period + " budget of " + limit + " USD",
                    Map.of(
                            "type",
                            "insufficient_quota",
                            "spent_usd",
                            spent.toPlainString(),
                            "budget_usd",
                            limit.toPlainString()));
        }
    }
}
