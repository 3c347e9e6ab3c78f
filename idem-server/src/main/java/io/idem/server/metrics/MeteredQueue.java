package io.idem.server.metrics;

import io.idem.core.spi.AheadResult;
import io.idem.core.spi.AttemptDraft;
import io.idem.core.spi.ClaimedJob;
import io.idem.core.spi.Deferral;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.JobQueueStore;
import io.idem.core.spi.Lease;
import io.idem.core.spi.Settlement;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The worker's queue store, counting what the worker does to its jobs as it happens: jobs it ended
 * (succeeded, failed, parked in review) by lane, the time from acceptance to a result, and each
 * failover from one provider to the next (the next attempt written ahead after an attempt that
 * moved on). It remembers the jobs this node holds, and forgets each when it leaves the worker.
 * Thread-safe.
 */
final class MeteredQueue implements JobQueueStore {
    /** More held jobs than this means entries leaked; forgetting them only loses a fallback count. */
    private static final int MAX_TRACKED = 100_000;

    private final JobQueueStore store;
    private final Metrics metrics;
    private final Map<UUID, Held> held = new ConcurrentHashMap<>();

    /** A job this node holds: its lane, when it was accepted, and the attempt it moved on from. */
    private record Held(String lane, Instant createdAt, Optional<Left> left) {}

    /** An attempt the job moved on from, and why. */
    private record Left(String provider, String reason) {}

    MeteredQueue(JobQueueStore store, Metrics metrics) {
        this.store = store;
        this.metrics = metrics;
    }

    @Override
    public List<ClaimedJob> claim(String workerId, int limit, Instant now, Duration leaseFor) {
        List<ClaimedJob> claimed = store.claim(workerId, limit, now, leaseFor);
        if (held.size() > MAX_TRACKED) {
            held.clear();
        }
        for (ClaimedJob job : claimed) {
            held.put(
                    job.lease().jobId(),
                    new Held(job.job().spec().lane(), job.job().createdAt(), Optional.empty()));
        }
        return claimed;
    }

    @Override
    public AheadResult writeAhead(Lease lease, AttemptDraft draft, Instant now) {
        Held job = held.get(lease.jobId());
        if (job != null && job.left().isPresent()) {
            Left left = job.left().get();
            metrics.jobFellBack(job.lane(), left.provider(), draft.provider(), left.reason());
            held.put(lease.jobId(), new Held(job.lane(), job.createdAt(), Optional.empty()));
        }
        return store.writeAhead(lease, draft, now);
    }

    @Override
    public boolean settle(Lease lease, Settlement settlement, String actor, Instant now) {
        boolean kept = store.settle(lease, settlement, actor, now);
        Held job = kept ? held.get(lease.jobId()) : held.remove(lease.jobId());
        if (!kept || job == null) {
            return kept;
        }
        switch (settlement.move()) {
            case JobMove.Continue c ->
                held.put(
                        lease.jobId(),
                        new Held(
                                job.lane(),
                                job.createdAt(),
                                Optional.of(new Left(settlement.provider(), reason(settlement)))));
            case JobMove.Succeed s -> {
                held.remove(lease.jobId());
                metrics.jobEnded(job.lane(), "succeeded", Optional.of(Duration.between(job.createdAt(), now)));
            }
            case JobMove.Fail f -> ended(lease, job, "failed");
            case JobMove.Park p -> ended(lease, job, "manual_review");
        }
        return kept;
    }

    private static String reason(Settlement settlement) {
        String errorClass = settlement.outcome().errorClass();
        return errorClass == null ? "unknown" : errorClass;
    }

    private void ended(Lease lease, Held job, String state) {
        held.remove(lease.jobId());
        metrics.jobEnded(job.lane(), state, Optional.empty());
    }

    @Override
    public boolean finish(Lease lease, JobMove.Fail failure, String actor, Instant now) {
        boolean kept = store.finish(lease, failure, actor, now);
        Held job = held.remove(lease.jobId());
        if (kept && job != null) {
            metrics.jobEnded(job.lane(), "failed", Optional.empty());
        }
        return kept;
    }

    @Override
    public boolean defer(Lease lease, Deferral deferral, String actor, Instant now) {
        held.remove(lease.jobId());
        return store.defer(lease, deferral, actor, now);
    }

    @Override
    public boolean release(Lease lease, String actor, Instant now) {
        held.remove(lease.jobId());
        return store.release(lease, actor, now);
    }

    @Override
    public int extendLeases(Collection<Lease> leases, Instant until) {
        return store.extendLeases(leases, until);
    }

    @Override
    public void noteSkipped(Lease lease, String provider, String reason, String actor, Instant now) {
        store.noteSkipped(lease, provider, reason, actor, now);
    }

    @Override
    public void markSubmitted(UUID attemptId, String providerRequestId) {
        store.markSubmitted(attemptId, providerRequestId);
    }

    @Override
    public int sweepExpiredLeases(Instant now, int limit) {
        return store.sweepExpiredLeases(now, limit);
    }

    @Override
    public BigDecimal costSoFar(UUID jobId) {
        return store.costSoFar(jobId);
    }
}
