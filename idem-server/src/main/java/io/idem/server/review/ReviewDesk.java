package io.idem.server.review;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobState;
import io.idem.core.domain.ReviewAction;
import io.idem.core.engine.Reconciler;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.spi.AssetStore;
import io.idem.core.spi.JobReads;
import io.idem.core.spi.ReviewCase;
import io.idem.core.spi.ReviewStore;
import io.idem.core.spi.StoredAsset;
import io.idem.server.http.ApiError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The review queue and the decisions on it, for every surface that offers them ({@code /v1} and
 * the embedding API): which jobs are parked, reconcile now, and an operator's audited retry, fail or
 * confirm_result. Refusals are {@link ApiError}s (404 no such job, 409 not parked or held by a
 * reconcile, 400 a bad note or result). Thread-safe.
 */
public final class ReviewDesk {
    /** The longest note a decision may carry. */
    public static final int MAX_NOTE_CHARS = 2000;

    private final JobReads reads;
    private final ReviewStore review;
    private final Reconciler reconciler;
    private final AssetStore assets;
    private final InstantSource clock;

    public ReviewDesk(
            JobReads reads, ReviewStore review, Reconciler reconciler, AssetStore assets, InstantSource clock) {
        this.reads = reads;
        this.review = review;
        this.reconciler = reconciler;
        this.assets = assets;
        this.clock = clock;
    }

    /** Up to {@code limit} parked jobs, oldest first. */
    public List<Job> queue(int limit) {
        return reads.reviewQueue(limit);
    }

    /** The parked job {@code id} as {@code ownerScope} sees it ({@code null}: every owner's). */
    public Job parked(UUID id, String ownerScope) {
        Job job = reads.find(id, ownerScope).orElseThrow(() -> ApiError.notFound("job"));
        if (job.state() != JobState.MANUAL_REVIEW) {
            throw new ApiError(409, "job_not_in_review", "job is " + job.state().wire() + ", not manual_review");
        }
        return job;
    }

    /** Re-checks the parked job with its provider now; the job as it is afterwards, and the verdict. */
    public Reconciled reconcile(UUID id, String ownerScope, String actor) {
        Job job = parked(id, ownerScope);
        Reconciler.Verdict verdict = reconciler.reconcileNow(job.id(), actor);
        if (verdict == Reconciler.Verdict.NOT_HELD) {
            throw new ApiError(409, "reconcile_in_progress", "another node is reconciling this job; try again shortly");
        }
        return new Reconciled(reads.find(job.id(), null).orElseThrow(), verdict);
    }

    /** A reconcile's verdict and the job after it. */
    public record Reconciled(Job job, Reconciler.Verdict verdict) {}

    /**
     * Decides on the parked job {@code id}, audited under {@code actor} with {@code note}; for
     * confirm_result, {@code result} is the media the operator has in hand (empty: the late result
     * already on the pending attempt). Returns the job after the decision.
     */
    public Job resolve(
            UUID id,
            String ownerScope,
            ReviewAction action,
            String note,
            Optional<List<GenerationResult.Media>> result,
            String actor) {
        if (note == null || note.isBlank() || note.length() > MAX_NOTE_CHARS) {
            throw ApiError.badRequest(
                    "missing_note", "a note of 1.." + MAX_NOTE_CHARS + " characters is required for every decision");
        }
        Job job = parked(id, ownerScope);
        var now = clock.instant();
        boolean moved = switch (action) {
            case RETRY -> review.resolveRetry(job.id(), actor, note, now);
            case FAIL -> review.resolveFail(job.id(), actor, note, now);
            case CONFIRM_RESULT -> confirm(job, result, actor, note);
        };
        Job current = reads.find(job.id(), null).orElseThrow();
        if (!moved) {
            throw current.state() == JobState.MANUAL_REVIEW
                    ? new ApiError(409, "reconcile_in_progress", "a reconcile holds this job; try again shortly")
                    : new ApiError(
                            409,
                            "job_not_in_review",
                            "job is " + current.state().wire() + ", not manual_review");
        }
        return current;
    }

    private boolean confirm(Job job, Optional<List<GenerationResult.Media>> result, String actor, String note) {
        Attempt attempt = ReviewCase.pendingAttemptOf(job)
                .orElseThrow(() -> new ApiError(
                        409, "no_pending_attempt", "this job has no attempt whose result could be confirmed"));
        List<StoredAsset> saved = result.isPresent() ? save(attempt.id(), result.get()) : List.of();
        return review.resolveConfirm(job.id(), saved, attempt.id(), actor, note, clock.instant());
    }

    private List<StoredAsset> save(UUID attemptId, List<GenerationResult.Media> media) {
        try {
            return assets.save(attemptId, new GenerationResult(media));
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("refusing")) {
                throw ApiError.badRequest("invalid_result", e.getMessage());
            }
            throw new UncheckedIOException(e);
        }
    }
}
