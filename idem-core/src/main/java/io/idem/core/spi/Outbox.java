package io.idem.core.spi;

import io.idem.core.webhook.Delivery;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The outbox of notable events and their deliveries, shared by every node. Events are written by
 * the stores that make the changes, in the same transactions; this port moves them on. Thread-safe.
 */
public interface Outbox {
    /**
     * Takes up to {@code limit} events no other node is taking and, in one transaction, removes them
     * and writes a pending delivery for every subscription that matches each (and for a job
     * event's {@code callback_url}), due at {@code now}, given up after {@code giveUpAt}. Returns
     * how many events it took.
     */
    int fanOut(int limit, Instant now, Instant giveUpAt);

    /**
     * Claims up to {@code limit} pending deliveries due at {@code now} for {@code node}: each counts
     * an attempt and is not due again until {@code lease} has passed, so one whose node dies is
     * taken over then. Claims skip rows another node is claiming at the same moment.
     */
    List<Delivery> claim(String node, int limit, Instant now, Duration lease);

    /** The receiver took it (whoever's claim it was: a success always lands). */
    void delivered(Delivery delivery, int status, Instant at);

    /**
     * The receiver did not take it: due again at {@code retryAt}, or failed for good when empty.
     * Fenced by the delivery's claim: a report from a claim that was taken over changes nothing.
     *
     * @param status the receiver's HTTP status, 0 when it did not answer
     * @param error what went wrong, already redacted
     */
    void failed(Delivery delivery, int status, String error, Instant at, Optional<Instant> retryAt);

    /** Deletes up to {@code limit} deliveries that ended before {@code before}; returns how many. */
    int purge(Instant before, int limit);
}
