package io.idem.core.breaker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The p95 latency trigger, driven by a settable clock. */
class LatencyTriggerTest {
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-01T10:00:00Z"));
    private final InstantSource clock = now::get;
    private final BreakerSettings settings = new BreakerSettings(
            1000,
            Duration.ofMillis(500),
            Duration.ofMinutes(2),
            20,
            Duration.ofSeconds(60),
            Duration.ofMinutes(30),
            Duration.ofSeconds(10));
    private final CircuitBreakers breakers = new CircuitBreakers(new MemoryBreakerStore(), settings, clock, "node-a");

    private void calls(int count, Duration latency) {
        for (int i = 0; i < count; i++) {
            now.set(now.get().plusMillis(10));
            breakers.onSuccess("slow", latency, false);
        }
    }

    @Test
    void slowCallsOverTheThresholdOpenTheBreaker() {
        calls(20, Duration.ofMillis(900));
        assertThat(breakers.snapshot("slow").state()).isEqualTo(BreakerState.OPEN);
    }

    @Test
    void fastCallsLeaveItClosed() {
        calls(200, Duration.ofMillis(100));
        assertThat(breakers.snapshot("slow").state()).isEqualTo(BreakerState.CLOSED);
    }

    @Test
    void tooFewSamplesNeverOpenIt() {
        calls(19, Duration.ofMillis(900));
        assertThat(breakers.snapshot("slow").state()).isEqualTo(BreakerState.CLOSED);
    }

    @Test
    void theTriggerIsEvaluatedAgainOnceASecondHasPassed() {
        calls(20, Duration.ofMillis(100));
        // checked at the 20th sample (fast); slow samples inside the same second wait for the next check
        calls(80, Duration.ofMillis(900));
        now.set(now.get().plusSeconds(1));
        calls(1, Duration.ofMillis(900));
        assertThat(breakers.snapshot("slow").state()).isEqualTo(BreakerState.OPEN);
    }
}
