package io.idem.core.spi;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Idempotency keys for chat calls (a client's {@code Idempotency-Key}, or the implicit key of a
 * keyless request whose retries are merged): the first request claims the key while it runs, stores
 * its finished answer, and every later request with the same key and body gets that answer. A
 * running call's claim lapses at its {@code lockedUntil} (its node may have died); a key past its
 * expiry is free, and so is one claimed before the ticket's {@code countsFrom}. Only the claim's
 * holder finishes or releases it. Each method is one atomic step, safe across threads and nodes.
 */
public interface ChatIdempotencyStore {

    /**
     * One request's claim on a key.
     *
     * @param holder this claim's own id: {@link #finish} and {@link #release} touch only it
     * @param requestId the request's id, which replays answer with
     * @param countsFrom an earlier claim made before this instant is taken over, running or done
     *     ({@link Instant#EPOCH}: every live claim counts)
     */
    record Ticket(
            byte[] digest,
            String owner,
            byte[] requestHash,
            UUID holder,
            String requestId,
            Instant now,
            Instant lockedUntil,
            Instant expiresAt,
            Instant countsFrom) {
        public Ticket {
            Objects.requireNonNull(digest, "digest");
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(requestHash, "requestHash");
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(now, "now");
            Objects.requireNonNull(lockedUntil, "lockedUntil");
            Objects.requireNonNull(expiresAt, "expiresAt");
            Objects.requireNonNull(countsFrom, "countsFrom");
        }
    }

    /**
     * A finished call's answer as kept for replay.
     *
     * @param status the HTTP status it was answered with (200, or a failure kept for an implicit key)
     * @param servedModel the model that answered; {@code null} for a failure
     */
    record Answer(int status, String response, String servedModel, String attempts) {
        public Answer {
            Objects.requireNonNull(response, "response");
        }
    }

    /** What a claim found. */
    sealed interface Claim {
        /** This request holds the key now and must {@link #finish} or {@link #release} it. */
        record Claimed() implements Claim {}

        /** The same request finished earlier: replay this, with the first request's id. */
        record Finished(Answer answer, Optional<String> requestId) implements Claim {
            public Finished {
                Objects.requireNonNull(answer, "answer");
                Objects.requireNonNull(requestId, "requestId");
            }
        }

        /** The same key is held by a running call until {@code lockedUntil}. */
        record InUse(Instant lockedUntil) implements Claim {}

        /** The key was used with a different request. */
        record Reused() implements Claim {}
    }

    /**
     * Claims the ticket's key: takes it when free, or a lapsed claim of the same request, or an
     * expired key, or one claimed before {@code countsFrom}; otherwise reports what holds it.
     */
    Claim claim(Ticket ticket);

    /** Stores the finished answer of a key {@code holder} claimed; nothing when it no longer holds it. */
    void finish(byte[] digest, UUID holder, Answer answer);

    /** Frees a key {@code holder} claimed whose call ended without an answer to keep, so it can be retried. */
    void release(byte[] digest, UUID holder);

    /** Deletes up to {@code limit} keys past their retention; returns how many. */
    int purgeExpired(Instant now, int limit);
}
