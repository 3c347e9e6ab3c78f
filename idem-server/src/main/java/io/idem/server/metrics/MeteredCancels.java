package io.idem.server.metrics;

import io.idem.core.spi.CancelStore;
import io.idem.core.spi.Lease;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * The cancel store, counting each job a client's cancel ended ({@code canceled}) or parked
 * ({@code manual_review}, the vendor could not say the call stopped). Thread-safe.
 */
final class MeteredCancels implements CancelStore {
    private final CancelStore store;
    private final MeteredEnds ends;

    MeteredCancels(CancelStore store, MeteredEnds ends) {
        this.store = store;
        this.ends = ends;
    }

    @Override
    public boolean cancelQueued(UUID jobId, String actor, Instant now) {
        return ends.counted(store.cancelQueued(jobId, actor, now), jobId, false, now);
    }

    @Override
    public Optional<Takeover> takeOver(UUID jobId, Duration holdFor, Instant now) {
        return store.takeOver(jobId, holdFor, now);
    }

    @Override
    public boolean cancelRunning(Lease lease, Optional<UUID> openAttempt, String actor, String detail, Instant now) {
        return ends.counted(store.cancelRunning(lease, openAttempt, actor, detail, now), lease.jobId(), false, now);
    }

    @Override
    public boolean parkRunning(Lease lease, UUID openAttempt, String actor, String detail, Instant now) {
        return ends.counted(store.parkRunning(lease, openAttempt, actor, detail, now), lease.jobId(), true, now);
    }
}
