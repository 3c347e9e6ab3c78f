package io.idem.server.metrics;

import io.idem.core.outcome.Outcome;
import io.idem.core.spi.ReviewCase;
import io.idem.core.spi.ReviewStore;
import io.idem.core.spi.StoredAsset;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The review store, counting the jobs that leave the review queue with an end: delivered or
 * refused on reconcile, failed or confirmed by an operator. Holds, expiry and retries end nothing
 * and pass straight through. Thread-safe.
 */
final class MeteredReview implements ReviewStore {
    private final ReviewStore store;
    private final MeteredEnds ends;

    MeteredReview(ReviewStore store, MeteredEnds ends) {
        this.store = store;
        this.ends = ends;
    }

    @Override
    public List<ReviewCase> holdDue(
            int limit, Instant now, Duration holdFor, Instant notCheckedSince, Set<String> leave) {
        return store.holdDue(limit, now, holdFor, notCheckedSince, leave);
    }

    @Override
    public Optional<ReviewCase> holdOne(UUID jobId, Instant now, Duration holdFor) {
        return store.holdOne(jobId, now, holdFor);
    }

    @Override
    public void letGo(ReviewCase held, Instant now) {
        store.letGo(held, now);
    }

    @Override
    public boolean promote(
            ReviewCase held,
            UUID attemptId,
            Optional<Outcome.Confirmed> delivered,
            List<StoredAsset> assets,
            String actor,
            Instant now) {
        return ends.counted(
                store.promote(held, attemptId, delivered, assets, actor, now),
                held.job().id(),
                false,
                now);
    }

    @Override
    public boolean closeUndelivered(
            ReviewCase held, UUID attemptId, String detail, boolean billed, String actor, Instant now) {
        return ends.counted(
                store.closeUndelivered(held, attemptId, detail, billed, actor, now),
                held.job().id(),
                false,
                now);
    }

    @Override
    public boolean failRejected(
            ReviewCase held, UUID attemptId, String errorClass, String code, String detail, String actor, Instant now) {
        return ends.counted(
                store.failRejected(held, attemptId, errorClass, code, detail, actor, now),
                held.job().id(),
                false,
                now);
    }

    @Override
    public boolean expire(ReviewCase held, String actor, Instant now) {
        return store.expire(held, actor, now);
    }

    @Override
    public boolean resolveRetry(UUID jobId, String actor, String note, Instant now) {
        return store.resolveRetry(jobId, actor, note, now);
    }

    @Override
    public boolean resolveFail(UUID jobId, String actor, String note, Instant now) {
        return ends.counted(store.resolveFail(jobId, actor, note, now), jobId, false, now);
    }

    @Override
    public boolean resolveConfirm(
            UUID jobId, List<StoredAsset> assets, UUID attemptId, String actor, String note, Instant now) {
        return ends.counted(store.resolveConfirm(jobId, assets, attemptId, actor, note, now), jobId, false, now);
    }
}
