package io.idem.core.chat;

import io.idem.core.outcome.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * When a chain entry tries the same model again ({@code retries}): only after a failure known to be
 * unbilled, a {@code 429} rate limit or a {@code 500}/{@code 502}/{@code 503} answered before any
 * content, never after one that may have been billed (a timeout after sending, a cut stream, an
 * unconfirmed answer). The vendor's {@code Retry-After} is honoured when it ends before the chain's
 * deadline and within {@link ChainLimits#MAX_RETRY_WAIT}; otherwise the chain fails over at once.
 * Pure apart from {@link #sleep}; thread-safe.
 */
final class Retries {
    private static final Set<Integer> RETRIED_STATUSES = Set.of(429, 500, 502, 503);
    /** The wait after a 429 whose vendor named none. */
    static final Duration RATE_LIMIT_WAIT = Duration.ofSeconds(1);
    /**
     * The wait after a 5xx whose vendor named none: none, the second try goes at once (a pause would
     * only delay the failover that a still failing upstream needs next).
     */
    static final Duration SERVER_ERROR_WAIT = Duration.ZERO;

    private Retries() {}

    /** How long to wait before trying the model again, or empty when it must not be tried again. */
    static Optional<Duration> waitBefore(Outcome outcome, Instant now, Instant deadline) {
        if (!(outcome instanceof Outcome.Unavailable u) || !RETRIED_STATUSES.contains(u.httpStatus())) {
            return Optional.empty();
        }
        Duration wait = u.retryAfter().orElse(u.httpStatus() == 429 ? RATE_LIMIT_WAIT : SERVER_ERROR_WAIT);
        if (wait.compareTo(ChainLimits.MAX_RETRY_WAIT) > 0 || !now.plus(wait).isBefore(deadline)) {
            return Optional.empty();
        }
        return Optional.of(wait);
    }

    /** Waits; false when the thread was interrupted (the server is stopping). */
    static boolean sleep(Duration wait) {
        if (wait.isZero()) {
            return true;
        }
        try {
            Thread.sleep(wait);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The fault the fake vendor acts out on try {@code retry} of a model: {@code simulate} may list
     * one per try, comma-separated, the last repeating ({@code "rate_limited:1,ok"}).
     */
    static Optional<String> simulate(String simulate, int retry) {
        if (simulate == null) {
            return Optional.empty();
        }
        String[] modes = simulate.split(",");
        return Optional.of(modes[Math.min(retry, modes.length - 1)].strip());
    }
}
