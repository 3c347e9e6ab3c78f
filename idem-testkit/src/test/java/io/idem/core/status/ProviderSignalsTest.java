package io.idem.core.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.breaker.BreakerSnapshot;
import io.idem.core.breaker.BreakerState;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One provider's standing from its breaker, the vendor's rate limit, its budget and its health checks. */
class ProviderSignalsTest {
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final Instant EARLIER = NOW.minus(Duration.ofMinutes(5));
    private static final Instant MIDNIGHT = Instant.parse("2026-03-01T00:00:00Z");

    private static BreakerSnapshot breaker(BreakerState state, Optional<Instant> rateLimitedUntil) {
        return new BreakerSnapshot("p", state, 0, Optional.empty(), Optional.empty(), 1, rateLimitedUntil);
    }

    private static ProviderSignals signals(BreakerState state, Optional<Instant> since) {
        return new ProviderSignals(
                breaker(state, Optional.empty()), since, Optional.empty(), false, Optional.empty(), Optional.empty());
    }

    @Test
    void theBreakerSaysOperationalDegradedOrDownSinceItsLastMove() {
        assertThat(signals(BreakerState.CLOSED, Optional.of(EARLIER)).standing(NOW))
                .isEqualTo(Standing.of(StatusLevel.OPERATIONAL, EARLIER));
        assertThat(signals(BreakerState.HALF_OPEN, Optional.of(EARLIER)).standing(NOW))
                .isEqualTo(Standing.of(StatusLevel.DEGRADED, EARLIER));
        assertThat(signals(BreakerState.OPEN, Optional.of(EARLIER)).standing(NOW))
                .isEqualTo(Standing.of(StatusLevel.DOWN, EARLIER));
        assertThat(signals(BreakerState.CLOSED, Optional.empty()).standing(NOW))
                .isEqualTo(new Standing(StatusLevel.OPERATIONAL, Optional.empty()));
    }

    @Test
    void aRateLimitKeepsItDownUntilItEndsAndItsEndIsWhenItCameBack() {
        Instant breakerMoved = NOW.minus(Duration.ofHours(1));
        var limited = new ProviderSignals(
                breaker(BreakerState.CLOSED, Optional.of(NOW.plusSeconds(30))),
                Optional.of(breakerMoved),
                Optional.of(EARLIER),
                false,
                Optional.empty(),
                Optional.empty());
        assertThat(limited.standing(NOW)).isEqualTo(Standing.of(StatusLevel.DOWN, EARLIER));
        Instant later = NOW.plusSeconds(60);
        assertThat(limited.standing(later)).isEqualTo(Standing.of(StatusLevel.OPERATIONAL, NOW.plusSeconds(30)));
    }

    @Test
    void aSpentBudgetIsDownUntilTheDayTurns() {
        var spent = new ProviderSignals(
                breaker(BreakerState.CLOSED, Optional.empty()),
                Optional.empty(),
                Optional.empty(),
                true,
                Optional.of(EARLIER),
                Optional.empty());
        assertThat(spent.standing(NOW)).isEqualTo(Standing.of(StatusLevel.DOWN, EARLIER));
        var nextDay = new ProviderSignals(
                breaker(BreakerState.CLOSED, Optional.empty()),
                Optional.empty(),
                Optional.empty(),
                false,
                Optional.of(MIDNIGHT.minus(Duration.ofHours(2))),
                Optional.empty());
        assertThat(nextDay.standing(NOW)).isEqualTo(Standing.of(StatusLevel.OPERATIONAL, MIDNIGHT));
    }

    @Test
    void aFailedHealthCheckDegradesAClosedProviderButNeverLiftsAnOpenOne() {
        var unhealthy = new ProviderSignals(
                breaker(BreakerState.CLOSED, Optional.empty()),
                Optional.of(NOW.minus(Duration.ofHours(1))),
                Optional.empty(),
                false,
                Optional.empty(),
                Optional.of(new ProviderSignals.Check(false, Optional.of(EARLIER))));
        assertThat(unhealthy.standing(NOW)).isEqualTo(Standing.of(StatusLevel.DEGRADED, EARLIER));
        var openButHealthy = new ProviderSignals(
                breaker(BreakerState.OPEN, Optional.empty()),
                Optional.of(EARLIER),
                Optional.empty(),
                false,
                Optional.empty(),
                Optional.of(new ProviderSignals.Check(true, Optional.empty())));
        assertThat(openButHealthy.standing(NOW)).isEqualTo(Standing.of(StatusLevel.DOWN, EARLIER));
    }
}
