package io.idem.core.time;

import java.time.Duration;

/**
 * A monotonic count of nanoseconds for measuring elapsed time (a call's latency, a refresh window,
 * a batch window). It is not a wall clock: only differences between two readings mean anything.
 * Engine classes take one so tests can drive their windows with a manual clock instead of waiting.
 * Implementations are thread-safe.
 */
@FunctionalInterface
public interface Ticker {

    /** The current reading, in nanoseconds from an arbitrary origin. */
    long read();

    /** The time passed since {@code startedAt}, an earlier reading of this ticker. */
    default Duration since(long startedAt) {
        return Duration.ofNanos(read() - startedAt);
    }

    /** The JVM's monotonic clock: the one place in core that reads {@code System.nanoTime}. */
    static Ticker system() {
        return System::nanoTime;
    }
}
