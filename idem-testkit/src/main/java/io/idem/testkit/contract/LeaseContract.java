package io.idem.testkit.contract;

import static io.idem.testkit.Outcomes.confirmed;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.AttemptStatus;
import io.idem.core.domain.Billable;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobState;
import io.idem.core.spi.AheadResult;
import io.idem.core.spi.ClaimedJob;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.Lease;
import io.idem.core.spi.Settlement;
import io.idem.testkit.JobSpecBuilder;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The claim and lease half of {@link JobQueueStoreContract}: who may write a job, and when that ends. */
public abstract class LeaseContract extends DeferralContract {

    @Test
    void claimsTheOldestQueuedJobsFirstEachWithItsOwnLease() {
        UUID second = accept(JobSpecBuilder.aJobSpec().build(), t0.plusSeconds(1));
        UUID first = accept(JobSpecBuilder.aJobSpec().build(), t0);
        accept(JobSpecBuilder.aJobSpec().build(), t0.plusSeconds(2));

        List<ClaimedJob> claimed = store().claim("a", 2, t0.plusSeconds(3), LEASE);

        // which jobs, not in what order: PostgreSQL's RETURNING keeps no order
        assertThat(claimed).extracting(c -> c.job().id()).containsExactlyInAnyOrder(first, second);
        assertThat(claimed).allSatisfy(c -> assertThat(c.job().state()).isEqualTo(JobState.RUNNING));
        assertThat(claimed.get(0).lease().token())
                .isNotEqualTo(claimed.get(1).lease().token());
        assertThat(eventTypes(first)).containsExactly("job.created", "job.claimed");
    }

    @Test
    void aClaimedJobIsNotClaimedAgainWhileItsLeaseHolds() {
        accept();
        claimOne("a", t0);
        assertThat(store().claim("b", 10, t0.plus(LEASE), LEASE)).isEmpty();
    }

    @Test
    void everyJobIsClaimedExactlyOnceByConcurrentWorkers() throws Exception {
        int jobs = 400;
        for (int i = 0; i < jobs; i++) {
            accept();
        }
        Set<UUID> seen = Collections.synchronizedSet(new HashSet<>());
        List<UUID> all = Collections.synchronizedList(new ArrayList<>());
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                String worker = "w" + w;
                workers.add(pool.submit(() -> {
                    List<ClaimedJob> batch;
                    do {
                        batch = store().claim(worker, 7, t0, LEASE);
                        batch.forEach(c -> {
                            seen.add(c.job().id());
                            all.add(c.job().id());
                        });
                    } while (!batch.isEmpty());
                }));
            }
            for (Future<?> f : workers) {
                f.get();
            }
        }
        assertThat(all).hasSize(jobs);
        assertThat(seen).hasSize(jobs);
    }

    @Test
    void extendingLeasesCountsOnlyTheLeasesStillHeld() {
        accept();
        accept();
        ClaimedJob lost = claimOne("a", t0);
        ClaimedJob held = claimOne("b", t0.plusSeconds(10));
        store().sweepExpiredLeases(t0.plus(LEASE).plusSeconds(1), 100);

        int extended = store().extendLeases(List.of(lost.lease(), held.lease()), t0.plusSeconds(90));

        assertThat(extended).isEqualTo(1);
        assertThat(store().sweepExpiredLeases(t0.plusSeconds(89), 100))
                .as("the extended lease outlives its first expiry")
                .isZero();
    }

    @Test
    void staleWorkersFinalWriteIsRefusedAndItsResultStaysOnTheAttempt() {
        UUID id = accept();
        ClaimedJob stale = claimOne("a", t0);
        UUID attempt = UUID.randomUUID();
        assertThat(store().writeAhead(stale.lease(), draft(attempt, "primary"), t0))
                .isEqualTo(AheadResult.WRITTEN);

        assertThat(store().sweepExpiredLeases(t0.plus(LEASE).plusSeconds(1), 100))
                .isEqualTo(1);
        Job parked = find(id);
        assertThat(parked.state()).isEqualTo(JobState.MANUAL_REVIEW);
        assertThat(parked.review().orElseThrow().reason()).isEqualTo("worker_lost");
        assertThat(parked.attempts().getFirst().status()).isEqualTo(AttemptStatus.UNCONFIRMED);

        boolean held = store().settle(
                        stale.lease(),
                        new Settlement(
                                attempt,
                                "primary",
                                confirmed(),
                                5,
                                new BigDecimal("0.04"),
                                new JobMove.Succeed(List.of())),
                        "worker:a",
                        t0.plusSeconds(40));
        assertThat(held).isFalse();
        Job after = find(id);
        assertThat(after.state()).isEqualTo(JobState.MANUAL_REVIEW);
        assertThat(after.attempts().getFirst().status()).isEqualTo(AttemptStatus.SUCCEEDED);
        assertThat(after.attempts().getFirst().billable()).isEqualTo(Billable.YES);
    }

    @Test
    void aJobWithoutAnOpenAttemptIsRequeuedAndTheOldLeaseCanNoLongerWrite() {
        UUID id = accept();
        ClaimedJob stale = claimOne("a", t0);
        store().sweepExpiredLeases(t0.plus(LEASE).plusSeconds(1), 100);
        assertThat(find(id).state()).isEqualTo(JobState.QUEUED);

        ClaimedJob fresh = claimOne("b", t0.plus(LEASE).plusSeconds(2));
        assertThat(store().writeAhead(stale.lease(), draft("primary"), t0)).isEqualTo(AheadResult.LEASE_LOST);
        assertThat(store().finish(stale.lease(), new JobMove.Fail("x", "y", "unavailable"), "worker:a", t0))
                .isFalse();
        assertThat(store().finish(fresh.lease(), new JobMove.Fail("x", "y", "unavailable"), "worker:b", t0))
                .isTrue();
        assertThat(find(id).state()).isEqualTo(JobState.FAILED);
    }

    @Test
    void aLostLeaseCanNeitherReleaseNorNoteNorSettleTheJob() {
        UUID id = accept();
        Lease stale = claimOne("a", t0).lease();
        store().sweepExpiredLeases(t0.plus(LEASE).plusSeconds(1), 100);
        claimOne("b", t0.plus(LEASE).plusSeconds(2));

        assertThat(store().release(stale, "worker:a", t0)).isFalse();
        store().noteSkipped(stale, "primary", "breaker_open", "worker:a", t0);
        assertThat(store().settle(
                                stale,
                                settlement(UUID.randomUUID(), "primary", confirmed(), new JobMove.Continue()),
                                "worker:a",
                                t0))
                .isFalse();

        assertThat(find(id).state()).isEqualTo(JobState.RUNNING);
        assertThat(eventTypes(id)).containsExactly("job.created", "job.claimed", "job.requeued", "job.claimed");
    }

    @Test
    void theSweeperLeavesALeaseAloneUntilItHasExpired() {
        accept();
        claimOne("a", t0);
        assertThat(store().sweepExpiredLeases(t0.plus(LEASE), 100)).isZero();
        assertThat(store().sweepExpiredLeases(t0.plus(LEASE).plusMillis(1), 100))
                .isEqualTo(1);
    }

    @Test
    void theSweeperHandlesAtMostItsLimitTheLongestExpiredFirst() {
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(accept(JobSpecBuilder.aJobSpec().build(), t0.plusSeconds(i)));
            claimOne("w" + i, t0.plusSeconds(i));
        }
        assertThat(store().sweepExpiredLeases(t0.plus(LEASE).plusSeconds(10), 3))
                .isEqualTo(3);
        assertThat(ids)
                .extracting(id -> find(id).state())
                .containsExactly(JobState.QUEUED, JobState.QUEUED, JobState.QUEUED, JobState.RUNNING, JobState.RUNNING);
        assertThat(store().sweepExpiredLeases(t0.plus(LEASE).plusSeconds(10), 3))
                .isEqualTo(2);
    }
}
