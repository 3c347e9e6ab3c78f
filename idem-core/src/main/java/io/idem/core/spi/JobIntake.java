package io.idem.core.spi;

import io.idem.core.domain.JobSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * Accepts jobs durably (DESIGN §4): the job, its {@code job.created} event and its idempotency
 * key are stored together, all or nothing, before the client hears 202. Of any number of
 * concurrent accepts with one key (across nodes), exactly one is {@link Accepted.Created}; the
 * others wait for it and are {@link Accepted.Replayed} (same request hash) or {@link
 * Accepted.KeyReused} (another hash). Implementations are thread-safe; an expired key is free.
 */
public interface JobIntake {

    /**
     * The server-side digest of a client's key, the hash of its normalized request, and how long
     * the key is kept after this accept.
     */
    record IdempotencyClaim(byte[] digest, byte[] requestHash, Duration retention) {
        public IdempotencyClaim {
            Objects.requireNonNull(digest, "digest");
            Objects.requireNonNull(requestHash, "requestHash");
            Objects.requireNonNull(retention, "retention");
        }
    }

    /** What became of an accept. */
    sealed interface Accepted {
        UUID jobId();

        /** A new job, queued at {@code createdAt}. */
        record Created(UUID jobId, Instant createdAt) implements Accepted {}

        /** The same request was accepted before under this key: this is its job. */
        record Replayed(UUID jobId) implements Accepted {}

        /** The key was used before with a different request. */
        record KeyReused(UUID jobId) implements Accepted {}
    }

    /**
     * Accepts a job of {@code owner} submitted with the API key {@code apiKeyId} (its spend counts
     * against that key; {@code null} for none), under {@code key} ({@code null}: not idempotent).
     */
    Accepted accept(String owner, UUID apiKeyId, JobSpec spec, IdempotencyClaim key, Instant now);

    /** Accepts a job submitted without an API key. */
    default Accepted accept(String owner, JobSpec spec, IdempotencyClaim key, Instant now) {
        return accept(owner, null, spec, key, now);
    }

    /** Deletes up to {@code limit} idempotency keys past their retention; returns how many. */
    int purgeExpiredKeys(Instant now, int limit);
}
