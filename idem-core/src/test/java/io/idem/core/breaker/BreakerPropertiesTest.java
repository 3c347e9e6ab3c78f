package io.idem.core.breaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class BreakerPropertiesTest {
    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");

    @Property
    void onlyWhitelistedMovesAreAllowed(@ForAll BreakerState from, @ForAll BreakerState to) {
        boolean legal = (from == BreakerState.CLOSED && to == BreakerState.OPEN)
                || (from == BreakerState.OPEN && to == BreakerState.HALF_OPEN)
                || (from == BreakerState.HALF_OPEN && (to == BreakerState.CLOSED || to == BreakerState.OPEN));
        assertThat(from.canMoveTo(to)).isEqualTo(legal);
        if (!legal) {
            assertThatThrownBy(() -> from.check(to)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Property
    void anOpenBreakerNeverAdmitsBeforeItsCooldownEnds(
            @ForAll @LongRange(min = 1, max = 1_000_000) long cooldownMs,
            @ForAll @LongRange(min = 0, max = 2_000_000) long elapsedMs) {
        var open = new BreakerSnapshot(
                "p", BreakerState.OPEN, 0, Optional.of(T0.plusMillis(cooldownMs)), Optional.empty(), 1);
        Admission.Decision decision = Admission.decide(open, T0.plusMillis(elapsedMs));
        assertThat(decision).isNotEqualTo(Admission.Decision.ALLOW);
        assertThat(decision == Admission.Decision.DENY).isEqualTo(elapsedMs < cooldownMs);
    }

    @Property
    void aHalfOpenBreakerAdmitsNoSecondProbeWhileOneIsOut(
            @ForAll @LongRange(min = 1, max = 1_000_000) long probeMs,
            @ForAll @LongRange(min = 0, max = 2_000_000) long elapsedMs) {
        var halfOpen = new BreakerSnapshot(
                "p", BreakerState.HALF_OPEN, 0, Optional.empty(), Optional.of(T0.plusMillis(probeMs)), 2);
        Admission.Decision decision = Admission.decide(halfOpen, T0.plusMillis(elapsedMs));
        assertThat(decision).isNotEqualTo(Admission.Decision.ALLOW);
        assertThat(decision == Admission.Decision.DENY).isEqualTo(elapsedMs < probeMs);
    }

    @Property
    void cooldownsDoubleOnEachReopenUpToTheCap(
            @ForAll @IntRange(min = 1, max = 600) int cooldownS,
            @ForAll @IntRange(min = 1, max = 100) int capFactor,
            @ForAll @IntRange(min = 0, max = 40) int reopens) {
        var settings = new BreakerSettings(
                3,
                Duration.ofSeconds(5),
                Duration.ofMinutes(2),
                20,
                Duration.ofSeconds(cooldownS),
                Duration.ofSeconds((long) cooldownS * capFactor),
                Duration.ofMinutes(2));
        Duration now = settings.cooldownAfter(reopens);
        Duration next = settings.cooldownAfter(reopens + 1);
        assertThat(next).isGreaterThanOrEqualTo(now);
        assertThat(now).isLessThanOrEqualTo(settings.maxCooldown()).isGreaterThanOrEqualTo(settings.cooldown());
        if (next.compareTo(settings.maxCooldown()) < 0) {
            assertThat(next).isEqualTo(now.multipliedBy(2));
        }
    }

    @Property
    void aClosedBreakerAlwaysAdmits(@ForAll("instants") Instant now) {
        assertThat(Admission.decide(BreakerSnapshot.closed("p"), now)).isEqualTo(Admission.Decision.ALLOW);
    }

    @Provide
    Arbitrary<Instant> instants() {
        return Arbitraries.longs().between(0, 4_000_000_000L).map(Instant::ofEpochSecond);
    }
}
