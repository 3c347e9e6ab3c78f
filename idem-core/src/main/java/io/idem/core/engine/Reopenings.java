package io.idem.core.engine;

import io.idem.core.breaker.BreakerSnapshot;
import io.idem.core.breaker.CircuitBreakers;
import io.idem.core.spi.Deferral;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Whether a provider is closed for a while, why, and until when: the breaker open (until its
 * cooldown ends) or half-open with its one probe out, the vendor's rate limit, or (when configured)
 * the daily budget spent until the UTC day turns. A provider closed for several reasons reopens at
 * the latest of them. Reads the gate's cached state only: it never takes a probe. Thread-safe.
 */
final class Reopenings {
    /** How soon to look again at a half-open breaker whose probe is out (the probe usually ends sooner). */
    static final Duration HALF_OPEN_RECHECK = Duration.ofSeconds(2);

    private final ProviderGate gate;
    private final boolean budgetDefers;

    Reopenings(ProviderGate gate, boolean budgetDefers) {
        this.gate = gate;
        this.budgetDefers = budgetDefers;
    }

    /** Empty when the provider is not closed for a while (open to calls, or out for good). */
    Optional<Deferral.Closed> closure(String provider, Instant now) {
        boolean budgetSpent = gate.budgets().blocked(provider).isPresent();
        if (budgetSpent && !budgetDefers) {
            return Optional.empty();
        }
        BreakerSnapshot breaker = gate.breakers().snapshot(provider);
        Optional<Deferral.Closed> limited = breaker.rateLimitedUntil()
                .filter(now::isBefore)
                .map(until -> new Deferral.Closed(provider, CircuitBreakers.RATE_LIMITED, until));
        Optional<Deferral.Closed> budget = budgetSpent
                ? Optional.of(new Deferral.Closed(provider, "budget_exhausted", nextUtcDay(now)))
                : Optional.empty();
        return Stream.of(limited, breaker(breaker, now), budget)
                .flatMap(Optional::stream)
                .max(Comparator.comparing(Deferral.Closed::until));
    }

    private static Optional<Deferral.Closed> breaker(BreakerSnapshot breaker, Instant now) {
        String provider = breaker.provider();
        return switch (breaker.state()) {
            case CLOSED -> Optional.empty();
            case OPEN ->
                Optional.of(new Deferral.Closed(
                        provider, "breaker_open", breaker.openUntil().orElse(now)));
            case HALF_OPEN -> {
                Instant recheck = now.plus(HALF_OPEN_RECHECK);
                Instant probeEnds = breaker.probeUntil().orElse(now);
                yield Optional.of(new Deferral.Closed(
                        provider, "breaker_half_open", probeEnds.isBefore(recheck) ? probeEnds : recheck));
            }
        };
    }

    private static Instant nextUtcDay(Instant now) {
        return now.atZone(ZoneOffset.UTC)
                .toLocalDate()
                .plusDays(1)
                .atStartOfDay(ZoneOffset.UTC)
                .toInstant();
    }
}
