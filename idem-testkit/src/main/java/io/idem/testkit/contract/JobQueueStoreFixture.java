package io.idem.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobSpec;
import io.idem.core.outcome.Outcome;
import io.idem.core.spi.AheadResult;
import io.idem.core.spi.AttemptDraft;
import io.idem.core.spi.ClaimedJob;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.JobQueueStore;
import io.idem.core.spi.Lease;
import io.idem.core.spi.Settlement;
import io.idem.testkit.JobSpecBuilder;
import io.idem.testkit.ManualClock;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What the {@link JobQueueStoreContract} needs from a store's test: the store, a way to queue a job
 * and a way to read it back. A subclass makes a fresh, empty store in its own {@code @BeforeEach}
 * (JUnit runs it before any test of the contract).
 */
public abstract class JobQueueStoreFixture {
    protected static final Duration LEASE = Duration.ofSeconds(30);
    protected final Instant t0 = ManualClock.DEFAULT_START;

    /** The store under test, empty at the start of each test. */
    protected abstract JobQueueStore store();

    /** Queues a job created at {@code createdAt} the way this store's intake does; returns its id. */
    protected abstract UUID accept(JobSpec spec, Instant createdAt);

    /** The job with its attempts, as the store's reader returns it. */
    protected abstract Job find(UUID jobId);

    /** The wire names of the job's trace, oldest first. */
    protected abstract List<String> eventTypes(UUID jobId);

    protected UUID accept() {
        return accept(JobSpecBuilder.aJobSpec().build(), t0);
    }

    protected ClaimedJob claimOne(String worker, Instant now) {
        List<ClaimedJob> claimed = store().claim(worker, 1, now, LEASE);
        assertThat(claimed).hasSize(1);
        return claimed.getFirst();
    }

    /** A claimed job whose call to {@code primary} is under way: where every settle case starts. */
    protected record InFlight(UUID jobId, ClaimedJob claim, UUID attemptId) {
        public Lease lease() {
            return claim.lease();
        }
    }

    protected InFlight inFlightOnPrimary() {
        UUID id = accept();
        ClaimedJob job = claimOne("a", t0);
        UUID attempt = UUID.randomUUID();
        assertThat(store().writeAhead(job.lease(), draft(attempt, "primary"), t0))
                .isEqualTo(AheadResult.WRITTEN);
        return new InFlight(id, job, attempt);
    }

    protected static AttemptDraft draft(UUID attemptId, String provider) {
        return new AttemptDraft(attemptId, provider, "m", 1);
    }

    protected static AttemptDraft draft(String provider) {
        return draft(UUID.randomUUID(), provider);
    }

    protected static Settlement settlement(UUID attemptId, String provider, Outcome outcome, JobMove move) {
        BigDecimal cost = outcome instanceof Outcome.Confirmed c ? c.costUsd() : BigDecimal.ZERO;
        return new Settlement(attemptId, provider, outcome, 5, cost, move);
    }

    protected Attempt onlyAttempt(UUID jobId) {
        List<Attempt> attempts = find(jobId).attempts();
        assertThat(attempts).hasSize(1);
        return attempts.getFirst();
    }
}
