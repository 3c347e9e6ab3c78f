package io.idem.core.status;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A level and since when it has held without a break. {@code since} is the latest moment the records
 * prove, so the level may have held longer; empty when it held as long as the records go back.
 */
public record Standing(StatusLevel level, Optional<Instant> since) {
    public Standing {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(since, "since");
    }

    public static Standing of(StatusLevel level, Instant since) {
        return new Standing(level, Optional.of(since));
    }

    public static Standing of(StatusLevel level, Optional<Instant> since) {
        return new Standing(level, since);
    }
}
