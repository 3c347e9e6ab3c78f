package io.idem.server.console;

import java.time.Duration;
import java.util.Objects;

/**
 * How many sign-in attempts one address or key prefix may make per window, and how long the
 * block that follows lasts: {@code firstBlock}, doubled for each block that follows within a
 * window of the last one ends, up to {@code maxBlock}.
 */
record ThrottleLimits(int attempts, Duration window, Duration firstBlock, Duration maxBlock) {
    ThrottleLimits {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1, was " + attempts);
        }
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(firstBlock, "firstBlock");
        Objects.requireNonNull(maxBlock, "maxBlock");
        if (window.isNegative() || window.isZero() || firstBlock.isNegative() || firstBlock.isZero()) {
            throw new IllegalArgumentException(
                    "window and firstBlock must be positive, were " + window + " and " + firstBlock);
        }
        if (maxBlock.compareTo(firstBlock) < 0) {
            throw new IllegalArgumentException(
                    "maxBlock (" + maxBlock + ") must not be shorter than firstBlock (" + firstBlock + ")");
        }
    }

    /** The length of the {@code n}-th consecutive block (1-based). */
    Duration block(int n) {
        Duration block = firstBlock;
        for (int i = 1; i < n && block.compareTo(maxBlock) < 0; i++) {
            block = block.multipliedBy(2);
        }
        return block.compareTo(maxBlock) > 0 ? maxBlock : block;
    }
}
