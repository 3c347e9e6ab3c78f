package io.idem.server.metrics;

import io.idem.core.domain.Job;
import io.idem.core.domain.JobState;
import io.idem.core.spi.JobReads;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Counts a job's end that no worker decided (a reconcile, an operator's decision, a cancel) under
 * the same {@code idem_jobs_finished_total} a worker's ends go to. The job is read once after its
 * move landed, for its lane and where the move took it (a reconcile that finds nothing delivered
 * requeues the job or fails it): these moves are rare, and a read that fails costs only the count.
 * Thread-safe.
 */
final class MeteredEnds {
    private final Metrics metrics;
    private final JobReads reads;

    MeteredEnds(Metrics metrics, JobReads reads) {
        this.metrics = metrics;
        this.reads = reads;
    }

    /**
     * Counts the job with {@code id} if {@code moved} and the move ended it (or, for {@code
     * parks}, parked it in manual_review); returns {@code moved}.
     */
    boolean counted(boolean moved, UUID id, boolean parks, Instant now) {
        if (moved) {
            reads.find(id, null)
                    .filter(job -> job.state().isTerminal() || (parks && job.state() == JobState.MANUAL_REVIEW))
                    .ifPresent(job -> count(job, now));
        }
        return moved;
    }

    private void count(Job job, Instant now) {
        Optional<Duration> toResult = job.state() == JobState.SUCCEEDED
                ? Optional.of(Duration.between(job.createdAt(), now))
                : Optional.empty();
        metrics.jobEnded(job.spec().lane(), job.state().wire(), toResult);
    }
}
