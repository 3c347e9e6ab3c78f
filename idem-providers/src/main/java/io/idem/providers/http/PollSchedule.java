package io.idem.providers.http;

import java.time.Duration;
import java.util.Objects;

/**
 * How often to ask an asynchronous vendor for a call's status: {@code first}, then doubling up to
 * {@code ceiling}, each pause drawn at random from its last fifth downwards (80 to 100 % of it), so
 * that the polls of many jobs started together spread out instead of reaching the vendor's rate
 * limit in step. Immutable and thread-safe.
 */
public record PollSchedule(Duration first, Duration ceiling) {
    /** Half a second, then up to three seconds between polls. */
    public static final PollSchedule STANDARD = new PollSchedule(Duration.ofMillis(500), Duration.ofSeconds(3));

    public PollSchedule {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(ceiling, "ceiling");
        if (first.isNegative() || first.isZero()) {
            throw new IllegalArgumentException("first poll pause must be positive, was " + first);
        }
        if (ceiling.compareTo(first) < 0) {
            throw new IllegalArgumentException("poll ceiling " + ceiling + " is below the first pause " + first);
        }
    }

    /** The smallest share of a pause that its jitter leaves, in percent. */
    static final int JITTER_FLOOR_PERCENT = 80;

    /** The pause after {@code previous}: twice it, at most the ceiling, less up to a fifth at random. */
    public Duration after(Duration previous) {
        Duration doubled = previous.multipliedBy(2);
        Duration next = doubled.compareTo(ceiling) > 0 ? ceiling : doubled;
        long percent = java.util.concurrent.ThreadLocalRandom.current().nextLong(JITTER_FLOOR_PERCENT, 101);
        Duration jittered = next.multipliedBy(percent).dividedBy(100);
        return jittered.compareTo(first) < 0 ? first : jittered;
    }

    /** The shorter of two pauses. */
    public static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** Sleeps for {@code pause}; false if interrupted, with the thread's interrupt flag set again. */
    public static boolean sleep(Duration pause) {
        try {
            Thread.sleep(pause);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
