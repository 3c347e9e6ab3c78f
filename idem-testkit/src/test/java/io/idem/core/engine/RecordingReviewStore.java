package io.idem.core.engine;

import io.idem.core.outcome.Outcome;
import io.idem.core.spi.ReviewCase;
import io.idem.core.spi.ReviewStore;
import io.idem.core.spi.StoredAsset;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A review store that holds one parked job and records what the reconciler asked of it. Every move
 * succeeds unless {@link #refuseMoves()} says another node got there first.
 */
final class RecordingReviewStore implements ReviewStore {
    private final List<String> calls = new ArrayList<>();
    private Optional<ReviewCase> held = Optional.empty();
    private boolean moves = true;

    RecordingReviewStore holding(ReviewCase parked) {
        held = Optional.of(parked);
        return this;
    }

    RecordingReviewStore refuseMoves() {
        moves = false;
        return this;
    }

    List<String> calls() {
        return List.copyOf(calls);
    }

    private boolean record(String call) {
        calls.add(call);
        return moves;
    }

    @Override
    public List<ReviewCase> holdDue(
            int limit, Instant now, Duration holdFor, Instant notCheckedSince, java.util.Set<String> leave) {
        return held
                .filter(h -> h.pendingAttempt()
                        .map(a -> !leave.contains(a.provider()))
                        .orElse(true))
                .stream()
                .toList();
    }

    @Override
    public Optional<ReviewCase> holdOne(UUID jobId, Instant now, Duration holdFor) {
        return held.filter(h -> h.job().id().equals(jobId));
    }

    @Override
    public void letGo(ReviewCase held, Instant now) {
        record("letGo");
    }

    @Override
    public boolean promote(
            ReviewCase held,
            UUID attemptId,
            Optional<Outcome.Confirmed> delivered,
            List<StoredAsset> assets,
            String actor,
            Instant now) {
        return record(delivered.isPresent() ? "promote(delivered)" : "promote(late result)");
    }

    @Override
    public boolean closeUndelivered(
            ReviewCase held, UUID attemptId, String detail, boolean billed, String actor, Instant now) {
        return record("closeUndelivered(billed=" + billed + ")");
    }

    @Override
    public boolean failRejected(
            ReviewCase held, UUID attemptId, String errorClass, String code, String detail, String actor, Instant now) {
        return record("failRejected(" + errorClass + ")");
    }

    @Override
    public boolean expire(ReviewCase held, String actor, Instant now) {
        return record("expire");
    }

    @Override
    public boolean resolveRetry(UUID jobId, String actor, String note, Instant now) {
        return record("resolveRetry");
    }

    @Override
    public boolean resolveFail(UUID jobId, String actor, String note, Instant now) {
        return record("resolveFail");
    }

    @Override
    public boolean resolveConfirm(
            UUID jobId, List<StoredAsset> assets, UUID attemptId, String actor, String note, Instant now) {
        return record("resolveConfirm");
    }
}
