package io.idem.providers.http;

import java.time.Duration;
import java.util.Objects;

/**
 * How often to ask an asynchronous vendor for a call's status: {@code first}, then doubling up to
 * {@code ceiling}. Immutable.
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

    /** The pause after {@code previous}. */
    public Duration after(Duration previous) {
        Duration doubled = previous.multipliedBy(2);
        return doubled.compareTo(ceiling) > 0 ? ceiling : doubled;
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
