package io.idem.testkit;

import io.idem.core.domain.Billable;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobEvent;
import io.idem.core.domain.JobEventType;
import io.idem.core.domain.JobResult;
import io.idem.core.domain.JobSpec;
import io.idem.core.domain.JobState;
import io.idem.core.spi.AheadResult;
import io.idem.core.spi.AttemptDraft;
import io.idem.core.spi.ClaimedJob;
import io.idem.core.spi.Deferral;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.JobQueueStore;
import io.idem.core.spi.Lease;
import io.idem.core.spi.Settlement;
import io.idem.core.spi.StoredAsset;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * {@link JobQueueStore} in memory, held to the same contract test as {@code PgJobQueueStore}
 * ({@code io.idem.testkit.contract.JobQueueStoreContract}): claims oldest first with a fresh lease
 * token, every job write fenced by that token, one attempt per provider per round and at most one
 * open attempt per job, attempt outcomes written unfenced so a late result always lands, and the
 * sweeper's worker_lost / requeue split; a deferred job is not claimed before its not-before time. Each job move writes its event; event details are not kept
 * (always {@code {}}). Thread-safe: every method runs under one lock, like one serializable database.
 */
public final class InMemoryJobQueueStore implements JobQueueStore {
    private static final Comparator<StoredJob> OLDEST_FIRST =
            Comparator.comparing((StoredJob j) -> j.createdAt).thenComparing(j -> j.id.toString());

    private final Map<UUID, StoredJob> jobs = new LinkedHashMap<>();
    private final Map<UUID, StoredAttempt> attempts = new LinkedHashMap<>();
    private final Map<UUID, List<StoredAsset>> assets = new LinkedHashMap<>();
    private final JobTrace trace = new JobTrace();

    /** Queues a new job, as intake does (with its {@code job.created} event); returns its id. */
    public synchronized UUID accept(String owner, JobSpec spec, Instant now) {
        UUID id = UUID.randomUUID();
        jobs.put(id, new StoredJob(id, owner, spec, now));
        trace.add(id, JobEventType.CREATED, null, JobState.QUEUED, "client:" + owner, now);
        return id;
    }

    /** The job with its attempts, as a reader sees it. */
    public synchronized Optional<Job> find(UUID jobId) {
        return Optional.ofNullable(jobs.get(jobId)).map(j -> j.view(true));
    }

    /** The job's trace, oldest first. */
    public synchronized List<JobEvent> events(UUID jobId) {
        return trace.of(jobId);
    }

    @Override
    public synchronized List<ClaimedJob> claim(String workerId, int limit, Instant now, Duration leaseFor) {
        String actor = "worker:" + workerId;
        List<StoredJob> due = jobs.values().stream()
                .filter(j -> j.dueAt(now))
                .sorted(OLDEST_FIRST)
                .limit(limit)
                .toList();
        List<ClaimedJob> claimed = new ArrayList<>();
        for (StoredJob job : due) {
            job.moveTo(JobState.RUNNING, now);
            job.leaseToken = UUID.randomUUID();
            job.leaseExpiresAt = now.plus(leaseFor);
            trace.add(job.id, JobEventType.CLAIMED, JobState.QUEUED, JobState.RUNNING, actor, now);
            Set<String> tried = job.attempts.stream()
                    .filter(a -> a.round == job.round)
                    .map(a -> a.provider)
                    .collect(Collectors.toSet());
            // it keeps no API keys, so it cannot say a key has no budget: every hold asks the spend store
            claimed.add(new ClaimedJob(job.view(false), new Lease(job.id, job.leaseToken), tried, true, now));
        }
        return claimed;
    }

    @Override
    public synchronized int extendLeases(Collection<Lease> leases, Instant until) {
        Set<UUID> tokens = leases.stream().map(Lease::token).collect(Collectors.toSet());
        int extended = 0;
        for (StoredJob job : jobs.values()) {
            if (job.state == JobState.RUNNING && tokens.contains(job.leaseToken)) {
                job.leaseExpiresAt = until;
                extended++;
            }
        }
        return extended;
    }

    @Override
    public synchronized AheadResult writeAhead(Lease lease, AttemptDraft draft, Instant now) {
        StoredJob job = held(lease);
        if (job == null) {
            return AheadResult.LEASE_LOST;
        }
        if (attempts.containsKey(draft.attemptId()) || job.refuses(draft)) {
            return AheadResult.ALREADY_ATTEMPTED;
        }
        StoredAttempt attempt = new StoredAttempt(job.id, draft, now);
        job.attempts.add(attempt);
        attempts.put(attempt.id, attempt);
        return AheadResult.WRITTEN;
    }

    @Override
    public synchronized void noteSkipped(Lease lease, String provider, String reason, String actor, Instant now) {
        if (held(lease) != null) {
            trace.add(lease.jobId(), JobEventType.CANDIDATE_SKIPPED, null, null, actor, now);
        }
    }

    @Override
    public synchronized void markSubmitted(UUID attemptId, String providerRequestId) {
        Optional.ofNullable(attempts.get(attemptId)).ifPresent(a -> a.submit(providerRequestId));
    }

    @Override
    public synchronized boolean settle(Lease lease, Settlement settlement, String actor, Instant now) {
        StoredAttempt attempt = attempts.get(settlement.attemptId());
        if (attempt != null) {
            attempt.settle(settlement, now);
            if (settlement.move() instanceof JobMove.Succeed succeed) {
                assets.computeIfAbsent(attempt.id, id -> new ArrayList<>()).addAll(succeed.assets());
            } else if (settlement.move() instanceof JobMove.Fail fail) {
                assets.computeIfAbsent(attempt.id, id -> new ArrayList<>()).addAll(fail.withheld());
            }
        }
        StoredJob job = held(lease);
        if (job == null || job.result.isPresent()) {
            return false;
        }
        switch (settlement.move()) {
            case JobMove.Continue next -> trace.add(job.id, JobEventType.FAILED_OVER, null, null, actor, now);
            case JobMove.Succeed succeed -> {
                job.result = Optional.of(new JobResult(settlement.provider(), settlement.attemptId(), refs(attempt)));
                end(job, JobState.SUCCEEDED, JobEventType.SUCCEEDED, Optional.empty(), Optional.empty(), actor, now);
            }
            case JobMove.Fail fail -> fail(job, fail, actor, now);
            case JobMove.Park park -> {
                var review = Optional.of(new Job.Review(park.reason(), now));
                end(job, JobState.MANUAL_REVIEW, JobEventType.MANUAL_REVIEW, Optional.empty(), review, actor, now);
            }
        }
        settlement.verdict().ifPresent(v -> trace.add(job.id, JobEventType.OUTPUT_MODERATED, null, null, actor, now));
        return true;
    }

    @Override
    public synchronized boolean finish(Lease lease, JobMove.Fail failure, String actor, Instant now) {
        StoredJob job = held(lease);
        if (job == null || job.result.isPresent()) {
            return false;
        }
        fail(job, failure, actor, now);
        return true;
    }

    @Override
    public synchronized boolean release(Lease lease, String actor, Instant now) {
        StoredJob job = held(lease);
        if (job == null || job.hasOpenAttempt()) {
            return false;
        }
        move(job, JobState.QUEUED, JobEventType.REQUEUED, actor, now);
        return true;
    }

    @Override
    public synchronized boolean defer(Lease lease, Deferral deferral, String actor, Instant now) {
        StoredJob job = held(lease);
        if (job == null || job.hasOpenAttempt()) {
            return false;
        }
        job.notBefore = deferral.notBefore();
        if (deferral.newRound()) {
            job.round++;
        }
        move(job, JobState.QUEUED, JobEventType.DEFERRED, actor, now);
        return true;
    }

    @Override
    public synchronized int sweepExpiredLeases(Instant now, int limit) {
        List<StoredJob> expired = jobs.values().stream()
                .filter(j -> j.state == JobState.RUNNING && j.leaseExpiresAt.isBefore(now))
                .sorted(Comparator.comparing((StoredJob j) -> j.leaseExpiresAt))
                .limit(limit)
                .toList();
        for (StoredJob job : expired) {
            if (job.hasOpenAttempt()) {
                job.attempts.forEach(a -> a.loseWorker(now));
                job.review = Optional.of(new Job.Review("worker_lost", now));
                move(job, JobState.MANUAL_REVIEW, JobEventType.MANUAL_REVIEW, "sweeper", now);
            } else {
                job.review = Optional.empty();
                move(job, JobState.QUEUED, JobEventType.REQUEUED, "sweeper", now);
            }
        }
        return expired.size();
    }

    private StoredJob held(Lease lease) {
        StoredJob job = jobs.get(lease.jobId());
        return job != null && job.heldBy(lease) ? job : null;
    }

    private void fail(StoredJob job, JobMove.Fail fail, String actor, Instant now) {
        var error = Optional.of(new Job.JobError(fail.code(), fail.message(), fail.errorClass()));
        end(job, JobState.FAILED, JobEventType.FAILED, error, Optional.empty(), actor, now);
    }

    /** A settling move out of running: it writes the error and review columns whether set or not. */
    private void end(
            StoredJob job,
            JobState to,
            JobEventType type,
            Optional<Job.JobError> error,
            Optional<Job.Review> review,
            String actor,
            Instant now) {
        job.error = error;
        job.review = review;
        move(job, to, type, actor, now);
    }

    private void move(StoredJob job, JobState to, JobEventType type, String actor, Instant now) {
        JobState from = job.state;
        job.moveTo(to, now);
        trace.add(job.id, type, from, to, actor, now);
    }

    private List<JobResult.AssetRef> refs(StoredAttempt attempt) {
        return attempt == null
                ? List.of()
                : assets.getOrDefault(attempt.id, List.of()).stream()
                        .map(a -> new JobResult.AssetRef(a.id(), a.mimeType(), a.bytes()))
                        .toList();
    }

    @Override
    public synchronized BigDecimal costSoFar(UUID jobId) {
        return attempts.values().stream()
                .filter(a -> a.jobId.equals(jobId) && a.billable != Billable.NO)
                .map(a -> a.costUsd)
                .reduce(BigDecimal.ZERO, BigDecimal::add);
    }
}
