package io.idem.core.webhook;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * When a failed delivery is tried again: {@code first} after the first failure, doubling with each
 * attempt up to {@code longest} between two attempts, each pause stretched by up to a quarter
 * (fixed per delivery, from its id, so receivers that fail together are not all retried in the same
 * second). No attempt starts after the delivery's give-up time: then it has failed for good.
 */
public record RetrySchedule(Duration first, Duration longest) {
    /** The longest pause between two attempts unless configured otherwise. */
    public static final Duration LONGEST = Duration.ofHours(1);

    public RetrySchedule {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(longest, "longest");
        if (first.isNegative() || first.isZero() || longest.compareTo(first) < 0) {
            throw new IllegalArgumentException(
                    "retry pauses need 0 < first <= longest, were " + first + ", " + longest);
        }
    }

    /** When the attempt that failed at {@code failedAt} is followed by the next; empty: give up. */
    public Optional<Instant> next(Delivery delivery, Instant failedAt) {
        Duration pause = pause(delivery.attempt());
        long stretchMillis = pause.toMillis() * Math.floorMod(delivery.id().hashCode(), 26) / 100;
        Instant next = failedAt.plus(pause).plusMillis(stretchMillis);
        return next.isAfter(delivery.giveUpAt()) ? Optional.empty() : Optional.of(next);
    }

    /** The pause after attempt {@code attempt} (from 1), before stretching. */
    public Duration pause(int attempt) {
        Duration pause = first;
        for (int i = 1; i < attempt && pause.compareTo(longest) < 0; i++) {
            pause = pause.multipliedBy(2);
        }
        return pause.compareTo(longest) < 0 ? pause : longest;
    }
}
