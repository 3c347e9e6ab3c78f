package io.idem.testkit;

import io.idem.core.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that moves only when a test moves it (db-scheduler's {@code SettableClock}). It is both
 * the wall clock ({@link InstantSource}) and the monotonic tick source ({@link Ticker}) the engine
 * reads, so one {@link #advance} drives lease expiry, cooldowns, latencies and refresh windows
 * together.
 *
 * <p>{@link #advance} moves both. {@link #set} moves the wall clock; the ticks follow a step
 * forward, but a step back (as NTP may make) leaves them where they are, as a real monotonic clock
 * would. Thread-safe: every reading and move is atomic.
 */
public final class ManualClock implements InstantSource, Ticker {
    /** Where a clock made without a start begins: a fixed instant, so test output is repeatable. */
    public static final Instant DEFAULT_START = Instant.parse("2026-12-01T10:00:00Z");

    private record Reading(Instant instant, long ticks) {}

    private final AtomicReference<Reading> now;

    public ManualClock() {
        this(DEFAULT_START);
    }

    public ManualClock(Instant start) {
        now = new AtomicReference<>(new Reading(Objects.requireNonNull(start, "start"), 0));
    }

    @Override
    public Instant instant() {
        return now.get().instant();
    }

    @Override
    public long read() {
        return now.get().ticks();
    }

    /** Moves wall time and ticks forward by {@code step}; returns the new instant. */
    public Instant advance(Duration step) {
        Objects.requireNonNull(step, "step");
        if (step.isNegative()) {
            throw new IllegalArgumentException("a manual clock only advances; use set() to step back, was " + step);
        }
        return now.updateAndGet(r -> new Reading(r.instant().plus(step), r.ticks() + step.toNanos()))
                .instant();
    }

    /** Sets the wall clock to {@code instant}; the ticks move forward only if it does. */
    public void set(Instant instant) {
        Objects.requireNonNull(instant, "instant");
        now.updateAndGet(r -> {
            long forward = Math.max(0, Duration.between(r.instant(), instant).toNanos());
            return new Reading(instant, r.ticks() + forward);
        });
    }

    @Override
    public String toString() {
        Reading r = now.get();
        return "ManualClock[" + r.instant() + ", ticks=" + r.ticks() + "]";
    }
}
