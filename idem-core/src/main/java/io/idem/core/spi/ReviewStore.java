package io.idem.core.spi;

import io.idem.core.outcome.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Storage for jobs parked in manual_review: reconcile holds and the moves out of the queue
 * (DESIGN §4 "Reconcile and review"). Every move is fenced by state, and reconcile moves by the
 * hold as well. Implementations are thread-safe and safe across nodes.
 */
public interface ReviewStore {

    /**
     * Holds up to {@code limit} parked jobs not re-checked since {@code notCheckedSince}, oldest first,
     * passing over every job whose pending attempt ({@link ReviewCase#pendingAttempt()}) is on one of
     * the {@code leave} providers: those wait for an operator, unheld.
     */
    List<ReviewCase> holdDue(int limit, Instant now, Duration holdFor, Instant notCheckedSince, Set<String> leave);

    /** Holds one parked job now (operator's "reconcile"); empty if it is not parked or already held. */
    Optional<ReviewCase> holdOne(UUID jobId, Instant now, Duration holdFor);

    /** Lets go of a hold without moving the job, noting when it was checked. */
    void letGo(ReviewCase held, Instant now);

    /**
     * The provider delivered: the attempt succeeded (billable yes) and the job succeeds with its
     * assets. {@code delivered} is the vendor's answer, or empty for a late result already on the
     * attempt.
     */
    boolean promote(
            ReviewCase held,
            UUID attemptId,
            Optional<Outcome.Confirmed> delivered,
            List<StoredAsset> assets,
            String actor,
            Instant now);

    /**
     * The provider definitively did not deliver: the attempt is closed with {@code billed} as the
     * vendor said, and the job goes back to the queue for its next candidate, or fails when none is
     * left.
     */
    boolean closeUndelivered(ReviewCase held, UUID attemptId, String detail, boolean billed, String actor, Instant now);

    /** The vendor refused the call: the attempt is closed (not billed) and the job fails, no fallback. */
    boolean failRejected(
            ReviewCase held, UUID attemptId, String errorClass, String code, String detail, String actor, Instant now);

    /** Past the reconcile age: the job stays for an operator with reason {@code reconcile_expired}. */
    boolean expire(ReviewCase held, String actor, Instant now);

    /** Operator decisions; each returns {@code false} when the job is not (or no longer) in manual_review. */
    boolean resolveRetry(UUID jobId, String actor, String note, Instant now);

    boolean resolveFail(UUID jobId, String actor, String note, Instant now);

    boolean resolveConfirm(
            UUID jobId, List<StoredAsset> assets, UUID attemptId, String actor, String note, Instant now);
}
