package io.idem.core.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.testkit.InMemoryBreakerStore;
import io.idem.testkit.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The latency trigger (DESIGN §6): p95 over the window above the threshold opens the breaker, once
 * the window holds enough calls. It is evaluated at most once a second. Its first evaluation once
 * subtracted from {@code Long.MIN_VALUE}, overflowed, and returned early forever: the first row
 * below is that regression.
 */
class P95TriggerTest {
    private static final String P = "slow";
    /** p95 over 500 ms, judged once the 2-minute window holds 20 calls (only successes here). */
    private static final BreakerSettings SETTINGS = CircuitBreakersTest.SETTINGS;

    private final ManualClock clock = new ManualClock();
    private final CircuitBreakers breakers = new CircuitBreakers(new InMemoryBreakerStore(), SETTINGS, clock, "node-a");

    /** {@code count} calls of {@code latencyMs}, one every {@code everyMs} on the clock. */
    private void calls(int count, long latencyMs, long everyMs) {
        for (int i = 0; i < count; i++) {
            clock.advance(Duration.ofMillis(everyMs));
            breakers.onSuccess(P, Duration.ofMillis(latencyMs), false);
        }
    }

    @ParameterizedTest(name = "{0} calls of {1} ms -> {2}")
    @CsvSource({
        "20,  900, OPEN", // the first check, at the minimum sample count, fires
        "19,  900, CLOSED", // too few calls to judge
        "200, 100, CLOSED", // fast calls
        "20,  500, CLOSED", // at the threshold is not over it
        "20,  501, OPEN"
    })
    void slowCallsOpenTheBreakerOnceTheWindowHoldsEnough(int count, long latencyMs, BreakerState expected) {
        calls(count, latencyMs, 10);
        assertThat(breakers.snapshot(P).state()).isEqualTo(expected);
    }

    @Test
    void aFewSlowCallsAmongManyFastOnesStayUnderTheP95() {
        calls(95, 100, 10);
        calls(4, 5000, 10);
        clock.advance(Duration.ofSeconds(1));
        calls(1, 100, 10);
        assertThat(breakers.snapshot(P).state()).isEqualTo(BreakerState.CLOSED);
    }

    @Test
    void theTriggerIsEvaluatedAtMostOnceASecond() {
        calls(20, 100, 10);
        calls(80, 900, 1); // all within the second after the first (fast) evaluation
        assertThat(breakers.snapshot(P).state()).isEqualTo(BreakerState.CLOSED);

        clock.advance(Duration.ofSeconds(1));
        calls(1, 900, 0);
        assertThat(breakers.snapshot(P).state()).isEqualTo(BreakerState.OPEN);
    }

    @Test
    void slowCallsOlderThanTheWindowNoLongerCount() {
        calls(19, 900, 10);
        clock.advance(SETTINGS.latencyWindow());
        calls(19, 100, 10);
        clock.advance(Duration.ofSeconds(1));
        calls(1, 900, 10);
        assertThat(breakers.snapshot(P).state()).isEqualTo(BreakerState.CLOSED);
        assertThat(breakers.p95Millis(P)).contains(100L);
    }
}
