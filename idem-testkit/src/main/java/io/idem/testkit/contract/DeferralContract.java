package io.idem.testkit.contract;

import static io.idem.testkit.Outcomes.unavailable;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.Job;
import io.idem.core.domain.JobState;
import io.idem.core.spi.AheadResult;
import io.idem.core.spi.AttemptDraft;
import io.idem.core.spi.ClaimedJob;
import io.idem.core.spi.Deferral;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.Lease;
import io.idem.testkit.JobSpecBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The deferral half of {@link JobQueueStoreContract}: a job that waits for a closed provider goes
 * back to the queue, is not claimed before its not-before time, and keeps its round unless told.
 */
public abstract class DeferralContract extends JobQueueStoreFixture {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static Deferral deferral(Instant notBefore, boolean newRound) {
        return new Deferral(notBefore, newRound, List.of(new Deferral.Closed("primary", "breaker_open", notBefore)));
    }

    @Test
    void aDeferredJobIsNotClaimedBeforeItsNotBeforeTime() {
        UUID id = accept();
        ClaimedJob job = claimOne("a", t0);
        Instant notBefore = t0.plus(WAIT);

        assertThat(store().defer(job.lease(), deferral(notBefore, false), "worker:a", t0))
                .isTrue();

        assertThat(find(id).state()).isEqualTo(JobState.QUEUED);
        assertThat(find(id).times().notBefore()).contains(notBefore);
        assertThat(store().claim("b", 10, notBefore.minusMillis(1), LEASE)).isEmpty();
        assertThat(store().claim("b", 10, notBefore, LEASE))
                .extracting(c -> c.job().id())
                .containsExactly(id);
        assertThat(eventTypes(id)).containsExactly("job.created", "job.claimed", "job.deferred", "job.claimed");
    }

    @Test
    void aDeferredJobDoesNotHoldBackYoungerJobs() {
        UUID older = accept(JobSpecBuilder.aJobSpec().build(), t0);
        ClaimedJob job = claimOne("a", t0);
        store().defer(job.lease(), deferral(t0.plus(WAIT), false), "worker:a", t0);
        UUID younger = accept(JobSpecBuilder.aJobSpec().build(), t0.plusSeconds(1));

        assertThat(store().claim("b", 10, t0.plusSeconds(2), LEASE))
                .extracting(c -> c.job().id())
                .containsExactly(younger);
        assertThat(find(older).state()).isEqualTo(JobState.QUEUED);
    }

    @Test
    void aDeferralKeepsTheRoundUnlessItOpensANewOne() {
        UUID id = accept();
        ClaimedJob job = claimOne("a", t0);
        UUID attempt = UUID.randomUUID();
        store().writeAhead(job.lease(), draft(attempt, "primary"), t0);
        store().settle(job.lease(), settlement(attempt, "primary", unavailable(), new JobMove.Continue()), "w", t0);

        store().defer(job.lease(), deferral(t0, false), "worker:a", t0);
        ClaimedJob sameRound = claimOne("a", t0);
        assertThat(sameRound.job().round()).isEqualTo(1);
        assertThat(sameRound.attemptedThisRound()).containsExactly("primary");

        store().defer(sameRound.lease(), deferral(t0, true), "worker:a", t0);
        ClaimedJob nextRound = claimOne("a", t0);
        assertThat(nextRound.job().round()).isEqualTo(2);
        assertThat(nextRound.attemptedThisRound()).isEmpty();
        assertThat(store().writeAhead(nextRound.lease(), new AttemptDraft(UUID.randomUUID(), "primary", "m", 2), t0))
                .isEqualTo(AheadResult.WRITTEN);
        assertThat(find(id).attempts()).hasSize(2);
    }

    @Test
    void aJobWithAnOpenAttemptOrALostLeaseIsNotDeferred() {
        InFlight inFlight = inFlightOnPrimary();
        assertThat(store().defer(inFlight.lease(), deferral(t0.plus(WAIT), false), "worker:a", t0))
                .as("a call is out: nothing may wait as if it were not")
                .isFalse();
        assertThat(find(inFlight.jobId()).state()).isEqualTo(JobState.RUNNING);

        UUID other = accept();
        ClaimedJob job = claimOne("a", t0);
        Lease stale = new Lease(job.lease().jobId(), UUID.randomUUID());
        assertThat(store().defer(stale, deferral(t0.plus(WAIT), false), "worker:a", t0))
                .isFalse();
        Job unchanged = find(other);
        assertThat(unchanged.state()).isEqualTo(JobState.RUNNING);
        assertThat(unchanged.times().notBefore()).isEmpty();
    }
}
