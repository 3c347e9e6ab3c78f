package io.idem.postgres;

import static io.idem.postgres.JobSpecs.aJobSpec;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.domain.AttemptStatus;
import io.idem.core.domain.Billable;
import io.idem.core.domain.Job;
import io.idem.core.domain.JobState;
import io.idem.core.outcome.GenerationResult;
import io.idem.core.outcome.Outcome;
import io.idem.core.spi.AheadResult;
import io.idem.core.spi.AttemptDraft;
import io.idem.core.spi.ClaimedJob;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.Settlement;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PgJobQueueStoreTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private Database db;
    private PgJobQueueStore store;
    private PgJobIntake intake;
    private PgJobReads reads;
    private final Instant t0 = Instant.parse("2026-12-01T10:00:00Z");

    @BeforeEach
    void open() {
        db = TestDatabases.fresh(24);
        store = new PgJobQueueStore(db);
        intake = new PgJobIntake(db);
        reads = new PgJobReads(db);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private UUID accept() {
        return intake.accept("alice", aJobSpec().build(), null, t0).jobId();
    }

    private ClaimedJob claimOne(String worker, Instant now) {
        List<ClaimedJob> claimed = store.claim(worker, 1, now, LEASE);
        assertThat(claimed).hasSize(1);
        return claimed.getFirst();
    }

    private static Outcome.Confirmed confirmed() {
        var media = new GenerationResult.Media("<svg/>".getBytes(), "image/svg+xml");
        return new Outcome.Confirmed(new GenerationResult(List.of(media)), 200, "gen_1", new BigDecimal("0.04"));
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
                        batch = store.claim(worker, 7, t0, LEASE);
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
    void staleWorkersFinalWriteIsRefusedAndItsResultStaysOnTheAttempt() {
        UUID id = accept();
        ClaimedJob stale = claimOne("a", t0);
        UUID attempt = UUID.randomUUID();
        assertThat(store.writeAhead(stale.lease(), new AttemptDraft(attempt, "primary", "m", 1), t0))
                .isEqualTo(AheadResult.WRITTEN);

        assertThat(store.sweepExpiredLeases(t0.plus(LEASE).plusSeconds(1), 100)).isEqualTo(1);
        Job parked = reads.find(id, null).orElseThrow();
        assertThat(parked.state()).isEqualTo(JobState.MANUAL_REVIEW);
        assertThat(parked.review().orElseThrow().reason()).isEqualTo("worker_lost");
        assertThat(parked.attempts().getFirst().status()).isEqualTo(AttemptStatus.UNCONFIRMED);

        boolean held = store.settle(
                stale.lease(),
                new Settlement(
                        attempt, "primary", confirmed(), 5, new BigDecimal("0.04"), new JobMove.Succeed(List.of())),
                "worker:a",
                t0.plusSeconds(40));
        assertThat(held).isFalse();
        Job after = reads.find(id, null).orElseThrow();
        assertThat(after.state()).isEqualTo(JobState.MANUAL_REVIEW);
        assertThat(after.attempts().getFirst().status()).isEqualTo(AttemptStatus.SUCCEEDED);
        assertThat(after.attempts().getFirst().billable()).isEqualTo(Billable.YES);
    }

    @Test
    void aJobWithoutAnOpenAttemptIsRequeuedAndTheOldLeaseCanNoLongerWrite() {
        UUID id = accept();
        ClaimedJob stale = claimOne("a", t0);
        store.sweepExpiredLeases(t0.plus(LEASE).plusSeconds(1), 100);
        assertThat(reads.find(id, null).orElseThrow().state()).isEqualTo(JobState.QUEUED);

        ClaimedJob fresh = claimOne("b", t0.plus(LEASE).plusSeconds(2));
        assertThat(store.writeAhead(stale.lease(), new AttemptDraft(UUID.randomUUID(), "primary", "m", 1), t0))
                .isEqualTo(AheadResult.LEASE_LOST);
        assertThat(store.finish(stale.lease(), new JobMove.Fail("x", "y", "unavailable"), "worker:a", t0))
                .isFalse();
        assertThat(store.finish(fresh.lease(), new JobMove.Fail("x", "y", "unavailable"), "worker:b", t0))
                .isTrue();
        assertThat(reads.find(id, null).orElseThrow().state()).isEqualTo(JobState.FAILED);
    }

    @Test
    void aProviderIsAttemptedOncePerRoundAndNeverBesideAnOpenAttempt() {
        accept();
        ClaimedJob job = claimOne("a", t0);
        UUID first = UUID.randomUUID();
        assertThat(store.writeAhead(job.lease(), new AttemptDraft(first, "primary", "m", 1), t0))
                .isEqualTo(AheadResult.WRITTEN);
        assertThat(store.writeAhead(job.lease(), new AttemptDraft(UUID.randomUUID(), "backup", "m", 1), t0))
                .as("no second call while the first is open")
                .isEqualTo(AheadResult.ALREADY_ATTEMPTED);
        store.settle(
                job.lease(),
                new Settlement(
                        first,
                        "primary",
                        new Outcome.Unavailable("http_503", "busy", 503, null),
                        3,
                        BigDecimal.ZERO,
                        new JobMove.Continue()),
                "worker:a",
                t0);
        assertThat(store.writeAhead(job.lease(), new AttemptDraft(UUID.randomUUID(), "primary", "m", 1), t0))
                .as("one attempt per provider per round")
                .isEqualTo(AheadResult.ALREADY_ATTEMPTED);
        assertThat(store.writeAhead(job.lease(), new AttemptDraft(UUID.randomUUID(), "backup", "m", 1), t0))
                .isEqualTo(AheadResult.WRITTEN);
    }

    @Test
    void everyTransitionWritesItsEvent() {
        UUID id = accept();
        ClaimedJob job = claimOne("a", t0);
        UUID attempt = UUID.randomUUID();
        store.writeAhead(job.lease(), new AttemptDraft(attempt, "primary", "m", 1), t0);
        store.settle(
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
        var types = reads.events(id).stream().map(e -> e.type().wire()).toList();
        assertThat(types).containsExactly("job.created", "job.claimed", "job.manual_review");
        assertThat(reads.find(id, null).orElseThrow().attempts().getFirst().billable())
                .isEqualTo(Billable.UNKNOWN);
    }
}
