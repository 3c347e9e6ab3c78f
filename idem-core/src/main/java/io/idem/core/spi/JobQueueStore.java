package io.idem.core.spi;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * The engine's view of durable job storage (DESIGN §4). Every job write is fenced by a {@link
 * Lease}; attempt outcomes are not. Implementations are thread-safe.
 */
public interface JobQueueStore {

    /**
     * Claims up to {@code limit} queued jobs in one statement, each with a fresh lease; a deferred job
     * is not claimed before its not-before time.
     */
    List<ClaimedJob> claim(String workerId, int limit, Instant now, Duration leaseFor);

    /** Extends the given leases; returns how many were still held. */
    int extendLeases(Collection<Lease> leases, Instant until);

    /** Writes the attempt ahead of its call, in its own commit, fenced by the lease. */
    AheadResult writeAhead(Lease lease, AttemptDraft draft, Instant now);

    /** Records on the job's trace that a candidate was skipped and why (fenced; no state change). */
    void noteSkipped(Lease lease, String provider, String reason, String actor, Instant now);

    /** Records the vendor's request id as soon as it is known. */
    void markSubmitted(UUID attemptId, String providerRequestId);

    /**
     * Writes the attempt's outcome (always) and applies the job move (fenced) in one transaction.
     *
     * @return {@code false} when the lease was lost: the outcome stays on the attempt only
     */
    boolean settle(Lease lease, Settlement settlement, String actor, Instant now);

    /** Fails a running job that has no candidate left (fenced). */
    boolean finish(Lease lease, JobMove.Fail failure, String actor, Instant now);

    /**
     * Puts a running job without an open attempt back to the queue until {@code deferral.notBefore()}
     * (a new round if it says so), with a {@code job.deferred} event naming each closed candidate
     * (fenced). Counts no attempt.
     *
     * @return {@code false} when the lease was lost
     */
    boolean defer(Lease lease, Deferral deferral, String actor, Instant now);

    /** Gives a running job without an open attempt back to the queue (graceful shutdown). */
    boolean release(Lease lease, String actor, Instant now);

    /**
     * Handles expired leases: a job with an open attempt goes to manual_review ({@code
     * worker_lost}) and the attempt becomes unconfirmed; a job without one goes back to the queue.
     *
     * @return how many jobs were handled
     */
    int sweepExpiredLeases(Instant now, int limit);

    /**
     * What job {@code jobId} may already have cost: its attempts (every round) billed or of unknown
     * billing, at their actual or expected cost. What a cost ceiling ({@code max_cost_usd}) is
     * measured against.
     */
    BigDecimal costSoFar(UUID jobId);
}
