package io.idem.postgres;

import static io.idem.testkit.JobSpecBuilder.aJobSpec;
import static org.assertj.core.api.Assertions.assertThat;

import io.idem.core.spi.JobIntake;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PgJobIntakeTest {
    private Database db;
    private PgJobIntake intake;
    private final Instant t0 = Instant.parse("2026-12-01T10:00:00Z");

    @BeforeEach
    void open() {
        db = TestDatabases.fresh(32);
        intake = new PgJobIntake(db);
    }

    @AfterEach
    void close() {
        db.close();
    }

    private static JobIntake.IdempotencyClaim key(String digest, String hash) {
        return new JobIntake.IdempotencyClaim(digest.getBytes(), hash.getBytes(), Duration.ofHours(24));
    }

    @Test
    void fiftyConcurrentAcceptsWithOneKeyMakeOneJob() throws Exception {
        List<Callable<JobIntake.Accepted>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            calls.add(() -> intake.accept("alice", aJobSpec().build(), key("k1", "h1"), t0));
        }
        List<JobIntake.Accepted> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(25)) {
            for (Future<JobIntake.Accepted> f : pool.invokeAll(calls)) {
                results.add(f.get());
            }
        }
        assertThat(results.stream().filter(r -> r instanceof JobIntake.Accepted.Created))
                .hasSize(1);
        assertThat(results.stream().filter(r -> r instanceof JobIntake.Accepted.Replayed))
                .hasSize(49);
        assertThat(results.stream().map(JobIntake.Accepted::jobId).distinct()).hasSize(1);
        assertThat(countJobs()).isEqualTo(1);
    }

    @Test
    void acceptsThatShareAStatementEachGetTheirOwnJobEventAndAnswer() throws Exception {
        var earlier = intake.accept("alice", aJobSpec().prompt("earlier").build(), key("taken", "h1"), t0);
        List<Callable<JobIntake.Accepted>> calls = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            int n = i;
            var spec = aJobSpec()
                    .prompt("job " + n)
                    .candidates("p" + n, "q" + n)
                    .simulate(java.util.Map.of("p" + n, "http_503"))
                    .build();
            calls.add(
                    switch (n % 4) {
                        case 0 -> () -> intake.accept("alice", spec, key("k" + n, "h" + n), t0);
                        case 1 -> () -> intake.accept("bob", spec, null, t0);
                        case 2 ->
                            () -> intake.accept(
                                    "alice", aJobSpec().prompt("earlier").build(), key("taken", "h1"), t0);
                        default -> () -> intake.accept("alice", spec, key("taken", "other"), t0);
                    });
        }
        List<JobIntake.Accepted> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(30)) {
            for (Future<JobIntake.Accepted> f : pool.invokeAll(calls)) {
                results.add(f.get());
            }
        }

        PgJobReads reads = new PgJobReads(db);
        for (int n = 0; n < 60; n++) {
            var result = results.get(n);
            switch (n % 4) {
                case 0, 1 -> {
                    assertThat(result).as("accept %d", n).isInstanceOf(JobIntake.Accepted.Created.class);
                    var job = reads.find(result.jobId(), n % 4 == 0 ? "alice" : "bob")
                            .orElseThrow();
                    assertThat(job.spec().prompt()).isEqualTo("job " + n);
                    assertThat(job.spec().candidates()).containsExactly("p" + n, "q" + n);
                    assertThat(job.spec().simulate()).containsEntry("p" + n, "http_503");
                    var events = reads.events(result.jobId());
                    assertThat(events).as("accept %d's events", n).hasSize(1);
                    assertThat(events.getFirst().actor()).isEqualTo("client:" + (n % 4 == 0 ? "alice" : "bob"));
                    assertThat(events.getFirst().detailJson()).contains("[\"p" + n + "\", \"q" + n + "\"]");
                }
                case 2 ->
                    assertThat(result)
                            .isEqualTo(new JobIntake.Accepted.Replayed(earlier.jobId(), java.util.Optional.empty()));
                default -> assertThat(result).isEqualTo(new JobIntake.Accepted.KeyReused(earlier.jobId()));
            }
        }
        assertThat(countJobs()).isEqualTo(1 + 30);
        assertThat(TestDatabases.column(db, "SELECT count(*) FROM job_events")).containsExactly("31");
        assertThat(results.stream().map(JobIntake.Accepted::jobId).distinct()).hasSize(31);
    }

    @Test
    void sameKeyWithOtherInputIsRefusedAndWritesNothing() {
        var first = intake.accept("alice", aJobSpec().build(), key("k1", "h1"), t0);
        var second = intake.accept("alice", aJobSpec().build(), key("k1", "h2"), t0);
        assertThat(second).isInstanceOf(JobIntake.Accepted.KeyReused.class);
        assertThat(second.jobId()).isEqualTo(first.jobId());
        assertThat(countJobs()).isEqualTo(1);
    }

    @Test
    void anExpiredKeyStartsANewJobAndIsPurged() {
        var first = intake.accept("alice", aJobSpec().build(), key("k1", "h1"), t0);
        Instant later = t0.plus(Duration.ofHours(25));
        assertThat(intake.purgeExpiredKeys(later, 100)).isEqualTo(1);
        var again = intake.accept("alice", aJobSpec().build(), key("k1", "h1"), later);
        assertThat(again).isInstanceOf(JobIntake.Accepted.Created.class);
        assertThat(again.jobId()).isNotEqualTo(first.jobId());
    }

    private static JobIntake.IdempotencyClaim implicit(String requestId, Instant countsFrom) {
        return new JobIntake.IdempotencyClaim(
                "implicit".getBytes(), "h1".getBytes(), Duration.ofMinutes(10), requestId, countsFrom);
    }

    @Test
    void anAcceptOlderThanTheClaimsCountsFromIsTakenOverAndAYoungerOneReplaysWithItsRequestId() {
        var first = intake.accept("alice", aJobSpec().build(), implicit("req_a", JobIntake.IdempotencyClaim.NEVER), t0);
        var late = intake.accept("alice", aJobSpec().build(), implicit("req_b", t0.plusSeconds(1)), t0.plusSeconds(5));
        var retry = intake.accept("alice", aJobSpec().build(), implicit("req_c", t0), t0.plusSeconds(6));
        assertThat(late).isInstanceOf(JobIntake.Accepted.Created.class);
        assertThat(late.jobId()).isNotEqualTo(first.jobId());
        assertThat(retry).isEqualTo(new JobIntake.Accepted.Replayed(late.jobId(), java.util.Optional.of("req_b")));
        assertThat(countJobs()).isEqualTo(2);
    }

    @Test
    void aClaimThatCountsNothingAlwaysMakesANewJob() {
        intake.accept("alice", aJobSpec().build(), implicit("req_a", JobIntake.IdempotencyClaim.NEVER), t0);
        var again = intake.accept("alice", aJobSpec().build(), implicit("req_b", JobIntake.IdempotencyClaim.NEVER), t0);
        assertThat(again).isInstanceOf(JobIntake.Accepted.Created.class);
        assertThat(countJobs()).isEqualTo(2);
    }

    private int countJobs() {
        return db.withConnection(c -> {
            try (var rs = c.createStatement().executeQuery("SELECT count(*) FROM jobs")) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }
}
