package io.idem.server.console;

import java.time.Duration;
import java.time.Instant;

/**
 * The recent sign-in attempts of one address or key prefix: how many in the current window, how
 * many blocks in a row, and until when the current block lasts. Immutable; the throttle replaces
 * it on each attempt.
 */
record Strikes(int attempts, Instant windowStart, int blocks, Instant blockedUntil) {
    static final Strikes NONE = new Strikes(0, Instant.EPOCH, 0, Instant.EPOCH);

    Strikes {
        if (attempts < 0 || blocks < 0) {
            throw new IllegalArgumentException("counts must not be negative, were " + attempts + ", " + blocks);
        }
    }

    boolean blocked(Instant now) {
        return blockedUntil.isAfter(now);
    }

    /** Whole seconds until the block ends, at least 1 (for {@code Retry-After}). */
    long retryAfterSeconds(Instant now) {
        Duration left = Duration.between(now, blockedUntil);
        return Math.max(1, left.toSeconds() + (left.toNanosPart() > 0 ? 1 : 0));
    }

    /**
     * After one more attempt at {@code now}: counted in the window, or, when it is one more than
     * the window allows, the start of the next block (the count starts again after it).
     */
    Strikes afterAttempt(Instant now, ThrottleLimits limits) {
        int blocksSoFar = blockedUntil.plus(limits.window()).isAfter(now) ? blocks : 0;
        boolean sameWindow = windowStart.plus(limits.window()).isAfter(now);
        int count = (sameWindow ? attempts : 0) + 1;
        if (count > limits.attempts()) {
            return new Strikes(0, now, blocksSoFar + 1, now.plus(limits.block(blocksSoFar + 1)));
        }
        return new Strikes(count, sameWindow ? windowStart : now, blocksSoFar, blockedUntil);
    }

    /** The same, less one attempt that turned out to be made with the right key. */
    Strikes withoutOneAttempt() {
        return new Strikes(Math.max(0, attempts - 1), windowStart, blocks, blockedUntil);
    }
}
