package io.idem.core.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.spi.HealthAnswer;
import io.idem.testkit.InMemoryBreakerStore;
import io.idem.testkit.ManualClock;
import java.time.Duration;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The breaker rules of DESIGN §6, driven by a manual clock: failures, cooldowns and the one probe. */
class CircuitBreakersTest {
    private static final String P = "primary";
    private static final Duration FAST = Duration.ofMillis(20);
    /** Opens after 3 failures; 60 s cooldown doubling to at most 8 min; a probe may stay out 10 s. */
    static final BreakerSettings SETTINGS = new BreakerSettings(
            3,
            Duration.ofMillis(500),
            Duration.ofMinutes(2),
            20,
            Duration.ofSeconds(60),
            Duration.ofMinutes(8),
            Duration.ofSeconds(10));

    private final ManualClock clock = new ManualClock();
    private final InMemoryBreakerStore store = new InMemoryBreakerStore();
    private final CircuitBreakers node = new CircuitBreakers(store, SETTINGS, clock, "node-a");

    private void fail(CircuitBreakers breakers, int times) {
        for (int i = 0; i < times; i++) {
            breakers.onError(P, FAST, false, "http_503");
        }
    }

    private BreakerState state() {
        return node.snapshot(P).state();
    }

    @ParameterizedTest(name = "{0} consecutive failures -> {1}")
    @CsvSource({"1, CLOSED", "2, CLOSED", "3, OPEN", "7, OPEN"})
    void consecutiveFailuresOpenTheBreakerAtTheThreshold(int failures, BreakerState expected) {
        fail(node, failures);
        assertThat(state()).isEqualTo(expected);
    }

    @Test
    void aSuccessInBetweenStartsTheCountAgain() {
        fail(node, 2);
        node.onSuccess(P, FAST, false);
        fail(node, 2);
        assertThat(state()).isEqualTo(BreakerState.CLOSED);
    }

    @Test
    void anOpenBreakerDeniesUntilItsCooldownEndsThenLetsExactlyOneProbeOut() {
        fail(node, 3);
        clock.advance(Duration.ofSeconds(59));
        assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Denied("breaker_open"));

        clock.advance(Duration.ofSeconds(1));
        assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Allowed(true));
        assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Denied("breaker_half_open"));
        assertThat(state()).isEqualTo(BreakerState.HALF_OPEN);
    }

    @Test
    void nodesSharingTheStoreShareTheOneProbe() {
        CircuitBreakers other = new CircuitBreakers(store, SETTINGS, clock, "node-b");
        fail(node, 3);
        other.refresh(P);
        clock.advance(Duration.ofSeconds(60));

        long allowed = Stream.of(node, other, node, other)
                .map(n -> n.tryAcquirePermission(P))
                .filter(a -> a instanceof Admission.Allowed)
                .count();

        assertThat(allowed).isEqualTo(1);
    }

    @Test
    void aSucceededProbeClosesTheBreaker() {
        fail(node, 3);
        clock.advance(Duration.ofSeconds(60));
        node.tryAcquirePermission(P);
        node.onSuccess(P, FAST, true);
        assertThat(state()).isEqualTo(BreakerState.CLOSED);
        assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Allowed(false));
    }

    @Test
    void aProbeThatGoesSilentIsTakenAgainAfterItsTimeout() {
        fail(node, 3);
        clock.advance(Duration.ofSeconds(60));
        node.tryAcquirePermission(P);
        clock.advance(Duration.ofSeconds(9));
        assertThat(node.tryAcquirePermission(P)).isInstanceOf(Admission.Denied.class);
        clock.advance(Duration.ofSeconds(1));
        assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Allowed(true));
    }

    static Stream<Arguments> reopenCooldowns() {
        // the first open waits 60 s; each failed probe doubles the wait, capped at 8 minutes
        return Stream.of(
                Arguments.of(1, Duration.ofSeconds(120)),
                Arguments.of(2, Duration.ofSeconds(240)),
                Arguments.of(3, Duration.ofSeconds(480)),
                Arguments.of(4, Duration.ofSeconds(480)));
    }

    @ParameterizedTest(name = "after {0} failed probes the cooldown is {1}")
    @MethodSource("reopenCooldowns")
    void everyFailedProbeReopensWithALongerCooldown(int failedProbes, Duration cooldown) {
        fail(node, 3);
        clock.advance(SETTINGS.cooldown());
        for (int i = 0; i < failedProbes; i++) {
            assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Allowed(true));
            node.onError(P, FAST, true, "http_503");
            if (i < failedProbes - 1) {
                clock.advance(SETTINGS.cooldownAfter(i + 1));
            }
        }
        clock.advance(cooldown.minusMillis(1));
        assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Denied("breaker_open"));
        clock.advance(Duration.ofMillis(1));
        assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Allowed(true));
    }

    @Test
    void aProbeSuccessAfterReopensStartsTheBackoffAgain() {
        fail(node, 3);
        IntStream.range(0, 2).forEach(i -> {
            clock.advance(SETTINGS.cooldownAfter(i));
            node.tryAcquirePermission(P);
            node.onError(P, FAST, true, "http_503");
        });
        clock.advance(SETTINGS.cooldownAfter(2));
        node.tryAcquirePermission(P);
        node.onSuccess(P, FAST, true);

        fail(node, 3);
        assertThat(node.snapshot(P).openUntil()).contains(clock.instant().plus(SETTINGS.cooldown()));
    }

    private static final HealthAnswer UP = new HealthAnswer(true, "HTTP 200");
    private static final HealthAnswer DOWN = new HealthAnswer(false, "HTTP 503");

    @Test
    void passingHealthChecksNeverClearTheFailuresOfRealCalls() {
        fail(node, 2);
        node.onHealthCheck(P, UP);
        fail(node, 1);
        assertThat(state()).isEqualTo(BreakerState.OPEN);
        assertThat(node.snapshot(P).openUntil()).contains(clock.instant().plus(SETTINGS.cooldown()));
    }

    @Test
    void failedHealthChecksOpenAtTheirOwnThresholdAndAPassingOneClearsOnlyThem() {
        CircuitBreakers breakers = new CircuitBreakers(store, withHealthThreshold(2), clock, "node-h");
        breakers.onHealthCheck(P, DOWN);
        breakers.onHealthCheck(P, UP);
        breakers.onHealthCheck(P, DOWN);
        breakers.onError(P, FAST, false, "http_503");
        assertThat(breakers.snapshot(P).state()).isEqualTo(BreakerState.CLOSED);
        breakers.onHealthCheck(P, DOWN);
        assertThat(breakers.snapshot(P).state()).isEqualTo(BreakerState.OPEN);
    }

    @Test
    void aProviderWithoutAHealthEndpointIsNotCountedByItsChecks() {
        fail(node, 2);
        node.onHealthCheck(P, HealthAnswer.unchecked());
        node.onHealthCheck(P, HealthAnswer.unchecked());
        assertThat(state()).isEqualTo(BreakerState.CLOSED);
        fail(node, 1);
        assertThat(state()).isEqualTo(BreakerState.OPEN);
        clock.advance(SETTINGS.cooldown());
        assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Allowed(true));
    }

    @Test
    void afterTheCooldownAPassingHealthCheckClosesTheBreakerWithoutRiskingACall() {
        node.onHealthCheck(P, UP);
        fail(node, 3);
        node.onHealthCheck(P, UP);
        assertThat(state()).isEqualTo(BreakerState.OPEN);

        clock.advance(SETTINGS.cooldown());
        assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Denied("breaker_open"));
        node.onHealthCheck(P, UP);

        assertThat(state()).isEqualTo(BreakerState.CLOSED);
        assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Allowed(false));
    }

    @Test
    void afterTheCooldownAFailingHealthCheckReopensWithTheNextCooldown() {
        node.onHealthCheck(P, UP);
        fail(node, 3);
        clock.advance(SETTINGS.cooldown());
        node.onHealthCheck(P, DOWN);

        assertThat(state()).isEqualTo(BreakerState.OPEN);
        assertThat(node.snapshot(P).openUntil()).contains(clock.instant().plus(SETTINGS.cooldownAfter(1)));
        clock.advance(SETTINGS.cooldownAfter(1));
        assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Denied("breaker_open"));
    }

    @Test
    void anUnusableAnswerClosesTheProviderAtOnceForItsOwnPeriod() {
        node.onUnusable(P, "insufficient_quota (HTTP 429)");
        assertThat(state()).isEqualTo(BreakerState.OPEN);
        assertThat(node.snapshot(P).openUntil()).contains(clock.instant().plus(SETTINGS.unusableFor()));
        assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Denied("breaker_open"));

        clock.advance(SETTINGS.unusableFor());
        assertThat(node.tryAcquirePermission(P)).isEqualTo(new Admission.Allowed(true));
        node.onUnusable(P, "insufficient_quota (HTTP 429)");
        assertThat(state()).isEqualTo(BreakerState.OPEN);
        assertThat(node.snapshot(P).openUntil()).contains(clock.instant().plus(SETTINGS.unusableFor()));
    }

    @Test
    void anUnusableAnswerNeverShortensAnOpenBreaker() {
        CircuitBreakers breakers = new CircuitBreakers(
                store,
                new BreakerSettings(
                        3,
                        Duration.ofMillis(500),
                        Duration.ofMinutes(2),
                        20,
                        Duration.ofMinutes(10),
                        Duration.ofMinutes(10),
                        Duration.ofSeconds(10)),
                clock,
                "node-u");
        fail(breakers, 3);
        breakers.onUnusable(P, "http_401 (HTTP 401)");
        assertThat(breakers.snapshot(P).openUntil()).contains(clock.instant().plus(Duration.ofMinutes(10)));
    }

    private static BreakerSettings withHealthThreshold(int threshold) {
        return new BreakerSettings(
                SETTINGS.failureThreshold(),
                SETTINGS.latencyThreshold(),
                SETTINGS.latencyWindow(),
                SETTINGS.latencyMinSamples(),
                SETTINGS.cooldown(),
                SETTINGS.maxCooldown(),
                SETTINGS.probeTimeout(),
                threshold,
                SETTINGS.unusableFor());
    }
}
