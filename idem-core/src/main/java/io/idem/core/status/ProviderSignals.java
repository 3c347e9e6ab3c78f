package io.idem.core.status;

import io.idem.core.breaker.BreakerSnapshot;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What decides whether one provider can serve, with when each signal last changed: its shared
 * breaker, the vendor's rate limit, its daily budget and its last health check.
 *
 * @param breakerSince the provider's last breaker event (the move into its current state)
 * @param rateLimitedSince the provider's last rate-limit event
 * @param exhaustedAt the provider's last {@code budget.exhausted} event
 * @param health the last health check, if it was checked
 */
public record ProviderSignals(
        BreakerSnapshot breaker,
        Optional<Instant> breakerSince,
        Optional<Instant> rateLimitedSince,
        boolean budgetExhausted,
        Optional<Instant> exhaustedAt,
        Optional<Check> health) {

    /** A health check's answer and since when checks have answered so (empty: from the first). */
    public record Check(boolean healthy, Optional<Instant> since) {
        public Check {
            Objects.requireNonNull(since, "since");
        }
    }

    public ProviderSignals {
        Objects.requireNonNull(breaker, "breaker");
        Objects.requireNonNull(breakerSince, "breakerSince");
        Objects.requireNonNull(rateLimitedSince, "rateLimitedSince");
        Objects.requireNonNull(exhaustedAt, "exhaustedAt");
        Objects.requireNonNull(health, "health");
    }

    /**
     * Down while its breaker is open, the vendor's rate limit lasts or its budget is spent; degraded
     * while its breaker is half-open or its last health check failed; else operational.
     */
    public Standing standing(Instant now) {
        List<Standing> reasons = new ArrayList<>();
        reasons.add(Standing.of(
                switch (breaker.state()) {
                    case CLOSED -> StatusLevel.OPERATIONAL;
                    case HALF_OPEN -> StatusLevel.DEGRADED;
                    case OPEN -> StatusLevel.DOWN;
                },
                breakerSince));
        if (breaker.rateLimitedAt(now)) {
            reasons.add(Standing.of(StatusLevel.DOWN, rateLimitedSince));
        } else {
            breaker.rateLimitedUntil().ifPresent(ended -> reasons.add(Standing.of(StatusLevel.OPERATIONAL, ended)));
        }
        if (budgetExhausted) {
            reasons.add(Standing.of(StatusLevel.DOWN, exhaustedAt));
        } else {
            Instant today = now.atZone(ZoneOffset.UTC)
                    .toLocalDate()
                    .atStartOfDay(ZoneOffset.UTC)
                    .toInstant();
            // spent on an earlier day: the budget came back when the day turned
            exhaustedAt
                    .filter(at -> at.isBefore(today))
                    .ifPresent(at -> reasons.add(Standing.of(StatusLevel.OPERATIONAL, today)));
        }
        health.ifPresent(check -> reasons.add(
                Standing.of(check.healthy() ? StatusLevel.OPERATIONAL : StatusLevel.DEGRADED, check.since())));
        return StatusRollup.worst(reasons);
    }
}
