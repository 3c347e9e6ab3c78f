package io.idem.testkit.contract;

import static io.idem.testkit.Outcomes.confirmed;
import static io.idem.testkit.Outcomes.unavailable;
import static io.idem.testkit.Outcomes.unconfirmed;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.AttemptStatus;
import io.idem.core.domain.Billable;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobState;
import io.idem.core.outcome.Outcome;
import io.idem.core.spi.AheadResult;
import io.idem.core.spi.ClaimedJob;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.Settlement;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The one contract every {@code JobQueueStore} passes (JobRunr's abstract store test), run against
 * PostgreSQL ({@code PgJobQueueStoreTest}) and memory ({@code InMemoryJobQueueStoreTest}). This half
 * holds the attempt protocol (DESIGN §4); {@link LeaseContract} holds claims, leases and sweeps.
 * To hold a new store to it, extend this class and implement the {@link JobQueueStoreFixture} hooks.
 */
public abstract class JobQueueStoreContract extends LeaseContract {

    @Test
    void aProviderIsAttemptedOncePerRoundAndNeverBesideAnOpenAttempt() {
        accept();
        ClaimedJob job = claimOne("a", t0);
        UUID first = UUID.randomUUID();
        assertThat(store().writeAhead(job.lease(), draft(first, "primary"), t0)).isEqualTo(AheadResult.WRITTEN);
        assertThat(store().writeAhead(job.lease(), draft("backup"), t0))
                .as("no second call while the first is open")
                .isEqualTo(AheadResult.ALREADY_ATTEMPTED);
        store().settle(
                        job.lease(),
                        settlement(first, "primary", unavailable(), new JobMove.Continue()),
                        "worker:a",
                        t0);
        assertThat(store().writeAhead(job.lease(), draft("primary"), t0))
                .as("one attempt per provider per round")
                .isEqualTo(AheadResult.ALREADY_ATTEMPTED);
        assertThat(store().writeAhead(job.lease(), draft("backup"), t0)).isEqualTo(AheadResult.WRITTEN);
    }

    @Test
    void concurrentWritesAheadUnderOneLeaseOpenExactlyOneAttempt() throws Exception {
        UUID id = accept();
        ClaimedJob job = claimOne("a", t0);
        int writers = 8;
        CountDownLatch start = new CountDownLatch(1);
        List<AheadResult> all = Collections.synchronizedList(new ArrayList<>());
        try (ExecutorService pool = Executors.newFixedThreadPool(writers)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                String provider = "p" + i;
                futures.add(pool.submit(() -> {
                    start.await();
                    return all.add(store().writeAhead(job.lease(), draft(provider), t0));
                }));
            }
            start.countDown();
            for (Future<?> f : futures) {
                f.get();
            }
        }
        assertThat(all).filteredOn(r -> r == AheadResult.WRITTEN).hasSize(1);
        assertThat(all).filteredOn(r -> r == AheadResult.ALREADY_ATTEMPTED).hasSize(writers - 1);
        assertThat(find(id).attempts()).hasSize(1);
    }

    @Test
    void aClaimNamesTheProvidersAlreadyAttemptedThisRound() {
        accept();
        ClaimedJob first = claimOne("a", t0);
        UUID attempt = UUID.randomUUID();
        store().writeAhead(first.lease(), draft(attempt, "primary"), t0);
        store().settle(
                        first.lease(),
                        settlement(attempt, "primary", unavailable(), new JobMove.Continue()),
                        "worker:a",
                        t0);
        assertThat(store().release(first.lease(), "worker:a", t0)).isTrue();

        assertThat(claimOne("b", t0.plusSeconds(1)).attemptedThisRound()).containsExactly("primary");
    }

    @Test
    void aConfirmedAttemptSucceedsTheJobAndEndsTheLease() {
        InFlight call = inFlightOnPrimary();
        UUID id = call.jobId();
        UUID attempt = call.attemptId();

        boolean held = store().settle(
                        call.lease(),
                        settlement(attempt, "primary", confirmed(), new JobMove.Succeed(List.of())),
                        "worker:a",
                        t0);

        assertThat(held).isTrue();
        Job done = find(id);
        assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(done.result().orElseThrow().attemptId()).isEqualTo(attempt);
        assertThat(done.result().orElseThrow().provider()).isEqualTo("primary");
        Attempt settled = onlyAttempt(id);
        assertThat(settled.status()).isEqualTo(AttemptStatus.SUCCEEDED);
        assertThat(settled.billable()).isEqualTo(Billable.YES);
        assertThat(settled.providerRequestId()).contains("gen_1");
        assertThat(eventTypes(id)).containsExactly("job.created", "job.claimed", "job.succeeded");
        assertThat(store().finish(call.lease(), new JobMove.Fail("x", "y", "unavailable"), "worker:a", t0))
                .as("a finished job's lease writes nothing more")
                .isFalse();
    }

    @Test
    void everyTransitionWritesItsEvent() {
        UUID id = accept();
        ClaimedJob job = claimOne("a", t0);
        UUID attempt = UUID.randomUUID();
        store().writeAhead(job.lease(), draft(attempt, "primary"), t0);
        store().settle(
                        job.lease(),
                        new Settlement(
                                attempt,
                                "primary",
                                new Outcome.Unconfirmed("read_timeout", "no answer", 0, null),
                                3000,
                                BigDecimal.ZERO,
                                new JobMove.Park("unconfirmed")),
                        "worker:a",
                        t0);
        var types = eventTypes(id);
        assertThat(types).containsExactly("job.created", "job.claimed", "job.manual_review");
        assertThat(find(id).attempts().getFirst().billable()).isEqualTo(Billable.UNKNOWN);
    }

    @Test
    void theVendorRequestIdIsKeptFromSubmitThroughAnUnknownOutcome() {
        InFlight call = inFlightOnPrimary();
        UUID id = call.jobId();
        UUID attempt = call.attemptId();
        store().markSubmitted(attempt, "req_42");
        assertThat(onlyAttempt(id).status()).isEqualTo(AttemptStatus.SUBMITTED);

        store().settle(
                        call.lease(),
                        settlement(attempt, "primary", unconfirmed(), new JobMove.Park("unconfirmed")),
                        "a",
                        t0);

        Attempt parked = onlyAttempt(id);
        assertThat(parked.status()).isEqualTo(AttemptStatus.UNCONFIRMED);
        assertThat(parked.providerRequestId()).contains("req_42");
        assertThat(find(id).review().orElseThrow().reason()).isEqualTo("unconfirmed");
    }

    @Test
    void aFailedOverAttemptLeavesTheJobRunningAndIsNotedOnTheTrace() {
        InFlight call = inFlightOnPrimary();
        UUID id = call.jobId();
        UUID attempt = call.attemptId();
        store().noteSkipped(call.lease(), "backup", "breaker_open", "worker:a", t0);

        assertThat(store().settle(
                                call.lease(),
                                settlement(attempt, "primary", unavailable(), new JobMove.Continue()),
                                "a",
                                t0))
                .isTrue();

        assertThat(find(id).state()).isEqualTo(JobState.RUNNING);
        assertThat(onlyAttempt(id).billable()).isEqualTo(Billable.NO);
        assertThat(eventTypes(id))
                .containsExactly("job.created", "job.claimed", "candidate.skipped", "attempt.failed_over");
    }

    @Test
    void finishingFailsTheJobWithItsError() {
        UUID id = accept();
        ClaimedJob job = claimOne("a", t0);
        var exhausted = new JobMove.Fail("providers_exhausted", "no candidate could serve this job", "unavailable");

        assertThat(store().finish(job.lease(), exhausted, "worker:a", t0)).isTrue();

        Job failed = find(id);
        assertThat(failed.state()).isEqualTo(JobState.FAILED);
        assertThat(failed.error().orElseThrow())
                .isEqualTo(new Job.JobError("providers_exhausted", "no candidate could serve this job", "unavailable"));
        assertThat(eventTypes(id)).containsExactly("job.created", "job.claimed", "job.failed");
    }

    @Test
    void releaseGivesBackOnlyAJobWithoutAnOpenAttempt() {
        InFlight call = inFlightOnPrimary();

        assertThat(store().release(call.lease(), "worker:a", t0)).isFalse();
        assertThat(find(call.jobId()).state()).isEqualTo(JobState.RUNNING);
    }

    @Test
    void theSweeperParksAJobWhoseWorkerDiedMidCallAndMarksItsAttemptWorkerLost() {
        InFlight call = inFlightOnPrimary();
        UUID id = call.jobId();
        UUID attempt = call.attemptId();
        store().markSubmitted(attempt, "req_7");

        assertThat(store().sweepExpiredLeases(t0.plus(LEASE).plusSeconds(1), 100))
                .isEqualTo(1);

        Attempt lost = onlyAttempt(id);
        assertThat(lost.status()).isEqualTo(AttemptStatus.UNCONFIRMED);
        assertThat(lost.errorCode()).contains("worker_lost");
        assertThat(lost.billable()).isEqualTo(Billable.UNKNOWN);
        assertThat(lost.providerRequestId()).as("reconcile needs the id").contains("req_7");
        assertThat(eventTypes(id)).containsExactly("job.created", "job.claimed", "job.manual_review");
        assertThat(store().claim("b", 10, t0.plus(LEASE).plusSeconds(2), LEASE))
                .as("a parked job waits for reconcile, never for another worker")
                .isEmpty();
    }
}
