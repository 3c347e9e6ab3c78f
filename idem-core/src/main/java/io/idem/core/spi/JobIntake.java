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
 * Accepted.KeyReused} (another hash). Implementations are thread-safe; an expired key is free, and
 * so is a key whose accept is older than the claim's {@link IdempotencyClaim#countsFrom}.
 */
public interface JobIntake {

    /**
     * The server-side digest of a key (a client's, or one derived from a keyless request), the hash
     * of its normalized request, and how long the key is kept after this accept.
     *
     * @param requestId the accepting request's id, which a replay answers with (null: none)
     * @param countsFrom an earlier accept under this key is replayed only when it was made at or
     *     after this instant; an older one is taken over by this accept ({@link #ALWAYS} for a
     *     client's key: every live accept counts; {@link #NEVER}: none does, this is a new job)
     */
    record IdempotencyClaim(
            byte[] digest, byte[] requestHash, Duration retention, String requestId, Instant countsFrom) {
        /** Every earlier accept under the key counts while the key lives. */
        public static final Instant ALWAYS = Instant.EPOCH;
        /** No earlier accept counts: the key is taken over. */
        public static final Instant NEVER = Instant.parse("9999-12-31T00:00:00Z");

        public IdempotencyClaim {
            Objects.requireNonNull(digest, "digest");
            Objects.requireNonNull(requestHash, "requestHash");
            Objects.requireNonNull(retention, "retention");
            Objects.requireNonNull(countsFrom, "countsFrom");
        }

        /** A client's {@code Idempotency-Key}, without a request id. */
        public IdempotencyClaim(byte[] digest, byte[] requestHash, Duration retention) {
            this(digest, requestHash, retention, null, ALWAYS);
        }
    }

    /** What became of an accept. */
    sealed interface Accepted {
        UUID jobId();

        /** A new job, queued at {@code createdAt}. */
        record Created(UUID jobId, Instant createdAt) implements Accepted {}

        /**
         * The same request was accepted before under this key: this is its job, and the id of the
         * request that created it (empty when it was not kept).
         */
        record Replayed(UUID jobId, java.util.Optional<String> requestId) implements Accepted {
            public Replayed {
                Objects.requireNonNull(requestId, "requestId");
            }

            public Replayed(UUID jobId) {
                this(jobId, java.util.Optional.empty());
            }
        }

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
