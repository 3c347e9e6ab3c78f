package io.idem.core.breaker;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Shared breaker state (DESIGN §6): every move is a compare-and-set on the stored state, so nodes
 * racing to open a breaker or to take its one probe agree; every move writes an event and tells
 * the other nodes. Thread-safe.
 */
public interface BreakerStore {
    Map<String, BreakerSnapshot> loadAll();

    Optional<BreakerSnapshot> load(String provider);

    /** closed → open; empty if the breaker was not closed any more. */
    Optional<BreakerSnapshot> open(String provider, Instant until, String reason, String node, Instant now);

    /** open (cooldown over) or a half-open whose probe went silent → half_open, held by this node. */
    Optional<BreakerSnapshot> takeProbe(String provider, Instant probeUntil, String node, Instant now);

    /** half_open → closed after the probe succeeded. */
    Optional<BreakerSnapshot> close(String provider, String node, Instant now);

    /** half_open → open again after the probe failed, with the next, longer cooldown. */
    Optional<BreakerSnapshot> reopen(String provider, Instant until, String reason, String node, Instant now);

    /**
     * The vendor asked us to stay away until {@code until} (a 429 with {@code Retry-After}): keeps
     * the later of the stored and the given time, in any breaker state, without moving the breaker.
     * Empty if the stored limit already lasts at least as long.
     */
    Optional<BreakerSnapshot> rateLimit(String provider, Instant until, String node, Instant now);

    /**
     * The vendor said it cannot serve us ({@code reason}: quota spent, credentials refused, model
     * unknown): closed or half-open → open until {@code until} (an open breaker's cooldown is only
     * lengthened, never shortened; the reopen count is kept), with a {@code provider.unusable}
     * event. Empty if the breaker was already open at least that long.
     */
    Optional<BreakerSnapshot> unusable(String provider, Instant until, String reason, String node, Instant now);
}
