package io.idem.core.spi;

import io.idem.core.alert.ProviderEvent;
import java.time.Instant;
import java.util.List;

/**
 * The provider event log as alerts read it, and the record of which alert went to which channel,
 * shared by every node so each channel gets each alert once. Thread-safe.
 */
public interface AlertLedger {
    /** Events with an id above {@code afterId}, oldest first, at most {@code limit}. */
    List<ProviderEvent> after(long afterId, int limit);

    /** The id of the last event before {@code at} (0 when there is none): where a starting node begins. */
    long lastIdBefore(Instant at);

    /**
     * Claims sending {@code alertKey} to {@code channel}: {@code MINE} for one caller across nodes;
     * {@code HELD} while another's claim is younger than {@code staleAfter} and not marked sent (a
     * node that died holding it leaves it stale, and the next claim takes it over); {@code SENT} once
     * it was delivered.
     */
    Claim claim(String alertKey, String channel, Instant at, java.time.Duration staleAfter);

    /** Records that the claimed alert reached the channel. */
    void markSent(String alertKey, String channel, Instant at);

    /** Gives up a claim whose send failed, so a later try (on any node) may claim it again. */
    void release(String alertKey, String channel);

    enum Claim {
        MINE,
        HELD,
        SENT
    }
}
