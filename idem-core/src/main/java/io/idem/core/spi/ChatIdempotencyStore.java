package io.idem.core.spi;

import java.time.Instant;

/**
 * {@code Idempotency-Key} for chat calls: the first request claims the key while it runs, stores
 * its finished response, and every later request with the same key and body gets that response.
 * A running call's claim lapses at its {@code lockedUntil} (its node may have died); a key past its
 * expiry is free. Each method is one atomic step, safe across threads and nodes.
 */
public interface ChatIdempotencyStore {

    /** What a claim found. */
    sealed interface Claim {
        /** This request holds the key now and must {@link #finish} or {@link #release} it. */
        record Claimed() implements Claim {}

        /** The same request finished earlier: replay this. */
        record Finished(String response, String servedModel, String attempts) implements Claim {}

        /** The same key is held by a running call until {@code lockedUntil}. */
        record InUse(Instant lockedUntil) implements Claim {}

        /** The key was used with a different request. */
        record Reused() implements Claim {}
    }

    /**
     * Claims {@code digest} for a request hashing to {@code requestHash}: takes it when free, or a
     * lapsed claim of the same request, or an expired key; otherwise reports what holds it.
     */
    Claim claim(byte[] digest, String owner, byte[] requestHash, Instant now, Instant lockedUntil, Instant expiresAt);

    /** Stores the finished response of a claimed key. */
    void finish(byte[] digest, String response, String servedModel, String attempts);

    /** Frees a claimed key whose call did not finish with an answer, so the request can be retried. */
    void release(byte[] digest);

    /** Deletes up to {@code limit} keys past their retention; returns how many. */
    int purgeExpired(Instant now, int limit);
}
