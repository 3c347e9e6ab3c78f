package io.idem.core.spi;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A running job that made no call at risk goes back to the queue until {@code notBefore}, because
 * every candidate it could still use is closed for a while (DESIGN §4, deferral).
 *
 * @param newRound the job waits for a provider it already called in this round (a call that billed
 *     nothing, then closed it): the next pass is a new round, so that provider may be called again
 * @param closed each closed candidate, why, and until when, in candidate order
 */
public record Deferral(Instant notBefore, boolean newRound, List<Closed> closed) {
    public Deferral {
        Objects.requireNonNull(notBefore, "notBefore");
        closed = List.copyOf(closed);
        if (closed.isEmpty()) {
            throw new IllegalArgumentException("a deferral waits for at least one closed candidate");
        }
    }

    /** One candidate closed for a while: {@code reason} is the admission's ({@code breaker_open}, …). */
    public record Closed(String provider, String reason, Instant until) {
        public Closed {
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(until, "until");
        }
    }
}
