package io.idem.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.idem.core.domain.Job;
import io.idem.core.domain.JobSpec;
import io.idem.core.domain.Role;
import io.idem.core.spi.ApiKeys;
import io.idem.core.spi.ClaimedJob;
import io.idem.core.spi.JobQueueStore;
import io.idem.testkit.contract.JobQueueStoreContract;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** PostgreSQL passes the one JobQueueStore contract (the in-memory store passes the same one). */
class PgJobQueueStoreTest extends JobQueueStoreContract {
    private Database db;
    private PgJobQueueStore store;
    private PgJobIntake intake;
    private PgJobReads reads;

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

    @Override
    protected JobQueueStore store() {
        return store;
    }

    @Override
    protected UUID accept(JobSpec spec, Instant createdAt) {
        return intake.accept("alice", spec, null, createdAt).jobId();
    }

    @Override
    protected Job find(UUID jobId) {
        return reads.find(jobId, null).orElseThrow();
    }

    @Override
    protected List<String> eventTypes(UUID jobId) {
        return reads.events(jobId).stream().map(e -> e.type().wire()).toList();
    }

    /** The claim reads the key's budgets, so a worker asks the budgets only when a key has one. */
    @Test
    void aClaimSaysWhetherTheJobsKeyCarriesABudget() {
        UUID plain = key("plain", ApiKeys.Attributes.UNCHANGED);
        UUID daily = key("daily", new ApiKeys.Attributes(null, null, Optional.of(BigDecimal.valueOf(5)), null));
        UUID monthly = key("monthly", new ApiKeys.Attributes(null, null, null, Optional.of(BigDecimal.valueOf(50))));
        var spec = io.idem.testkit.JobSpecBuilder.aJobSpec().build();
        UUID none = intake.accept("alice", null, spec, null, t0).jobId();
        UUID ofPlain =
                intake.accept("alice", plain, spec, null, t0.plusMillis(1)).jobId();
        UUID ofDaily =
                intake.accept("alice", daily, spec, null, t0.plusMillis(2)).jobId();
        UUID ofMonthly =
                intake.accept("alice", monthly, spec, null, t0.plusMillis(3)).jobId();
        Instant now = t0.plusSeconds(1);

        var claimed = store.claim("a", 10, now, java.time.Duration.ofSeconds(30));

        assertThat(claimed)
                .extracting(c -> c.job().id(), ClaimedJob::keyBudgeted, ClaimedJob::claimedAt)
                .containsExactlyInAnyOrder(
                        tuple(none, false, now),
                        tuple(ofPlain, false, now),
                        tuple(ofDaily, true, now),
                        tuple(ofMonthly, true, now));
    }

    private UUID key(String owner, ApiKeys.Attributes attributes) {
        UUID id = UUID.randomUUID();
        PgApiKeys keys = new PgApiKeys(db);
        keys.insert(id, "idem_" + owner, id.toString().getBytes(), owner, Role.CLIENT, t0);
        keys.update(id, attributes);
        return id;
    }

    @Test
    void aHeartbeatPassesOverAJobAnotherTransactionHoldsInsteadOfWaitingForIt() throws Exception {
        accept(io.idem.testkit.JobSpecBuilder.aJobSpec().build(), t0);
        accept(io.idem.testkit.JobSpecBuilder.aJobSpec().build(), t0.plusSeconds(1));
        var held = claimOne("a", t0);
        var free = claimOne("a", t0.plusSeconds(1));
        try (var other = db.dataSource().getConnection()) {
            other.setAutoCommit(false);
            try (var ps = other.prepareStatement("SELECT 1 FROM jobs WHERE id = ? FOR NO KEY UPDATE")) {
                ps.setObject(1, held.job().id());
                ps.executeQuery().close();
            }
            // a shared commit holding one of the worker's jobs: the heartbeat must not queue behind it
            var extended = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> store.extendLeases(List.of(held.lease(), free.lease()), t0.plusSeconds(90)));
            assertThat(extended.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(1);
            other.rollback();
        }
        assertThat(store.extendLeases(List.of(held.lease(), free.lease()), t0.plusSeconds(90)))
                .isEqualTo(2);
    }

    @Test
    void writeAheadsThatShareAStatementEachGetTheirOwnAnswer() throws Exception {
        for (int i = 0; i < 40; i++) {
            accept(io.idem.testkit.JobSpecBuilder.aJobSpec().build(), t0.plusMillis(i));
        }
        var claimed = store.claim("a", 40, t0.plusSeconds(1), java.time.Duration.ofSeconds(30));
        assertThat(claimed).hasSize(40);
        UUID repeated = UUID.randomUUID();
        var first = claimed.getFirst().lease();
        assertThat(store.writeAhead(first, new io.idem.core.spi.AttemptDraft(repeated, "p", "m", 1), t0))
                .hasToString("WRITTEN");
        List<java.util.concurrent.Callable<String>> calls = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            var lease = claimed.get(i).lease();
            calls.add(
                    switch (i % 4) {
                        case 0 ->
                            () -> store.writeAhead(first, new io.idem.core.spi.AttemptDraft(repeated, "p", "m", 1), t0)
                                    .toString();
                        case 1 ->
                            () -> store.writeAhead(
                                            new io.idem.core.spi.Lease(lease.jobId(), UUID.randomUUID()),
                                            new io.idem.core.spi.AttemptDraft(UUID.randomUUID(), "p", "m", 1),
                                            t0)
                                    .toString();
                        default ->
                            () -> store.writeAhead(
                                            lease,
                                            new io.idem.core.spi.AttemptDraft(UUID.randomUUID(), "p", "m", 1),
                                            t0)
                                    .toString();
                    });
        }
        List<String> answers = new java.util.ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(40)) {
            for (var answer : pool.invokeAll(calls)) {
                answers.add(answer.get());
            }
        }
        for (int i = 0; i < 40; i++) {
            assertThat(answers.get(i))
                    .as("write-ahead %d", i)
                    .isEqualTo(
                            switch (i % 4) {
                                case 0 -> "ALREADY_ATTEMPTED";
                                case 1 -> "LEASE_LOST";
                                default -> "WRITTEN";
                            });
        }
        // the first job's one attempt, and one for each job whose lease was held (i % 4 of 2 or 3)
        assertThat(TestDatabases.column(db, "SELECT count(*) FROM provider_attempts"))
                .containsExactly(String.valueOf(1 + 20));
    }

    @Test
    void settlesThatShareAStatementEachMoveTheirOwnJobOrLearnTheirLeaseWasLost() throws Exception {
        for (int i = 0; i < 40; i++) {
            accept(io.idem.testkit.JobSpecBuilder.aJobSpec().build(), t0.plusMillis(i));
        }
        var claimed = store.claim("a", 40, t0.plusSeconds(1), java.time.Duration.ofSeconds(30));
        List<UUID> attempts = new java.util.ArrayList<>();
        for (ClaimedJob job : claimed) {
            UUID attempt = UUID.randomUUID();
            assertThat(store.writeAhead(job.lease(), draft(attempt, "primary"), t0))
                    .hasToString("WRITTEN");
            attempts.add(attempt);
        }
        List<java.util.concurrent.Callable<Boolean>> calls = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            var lease = claimed.get(i).lease();
            var held = i % 4 == 1 ? new io.idem.core.spi.Lease(lease.jobId(), UUID.randomUUID()) : lease;
            var settlement = switch (i % 4) {
                case 2 ->
                    settlement(
                            attempts.get(i),
                            "primary",
                            new io.idem.core.outcome.Outcome.Unconfirmed("read_timeout", "no answer", 0, null),
                            new io.idem.core.spi.JobMove.Park("unconfirmed"));
                case 3 ->
                    settlement(
                            attempts.get(i),
                            "primary",
                            new io.idem.core.outcome.Outcome.Unconfirmed("read_timeout", "no answer", 0, null),
                            new io.idem.core.spi.JobMove.Fail("gave_up", "no answer", "unavailable"));
                default ->
                    settlement(
                            attempts.get(i),
                            "primary",
                            io.idem.testkit.Outcomes.confirmed(),
                            new io.idem.core.spi.JobMove.Succeed(List.of()));
            };
            calls.add(() -> store.settle(held, settlement, "worker:a", t0.plusSeconds(2)));
        }
        List<Boolean> moved = new java.util.ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(40)) {
            for (var answer : pool.invokeAll(calls)) {
                moved.add(answer.get());
            }
        }
        for (int i = 0; i < 40; i++) {
            Job job = find(claimed.get(i).lease().jobId());
            String expected = switch (i % 4) {
                case 1 -> "running";
                case 2 -> "manual_review";
                case 3 -> "failed";
                default -> "succeeded";
            };
            assertThat(moved.get(i)).as("settle %d held", i).isEqualTo(i % 4 != 1);
            assertThat(job.state().wire()).as("job %d", i).isEqualTo(expected);
            assertThat(eventTypes(job.id()))
                    .as("job %d's trace", i)
                    .containsExactly(
                            i % 4 == 1
                                    ? new String[] {"job.created", "job.claimed"}
                                    : new String[] {"job.created", "job.claimed", "job." + expected});
            // the outcome lands on the attempt even where the lease was lost: a late result is kept
            assertThat(job.attempts().getFirst().status().wire())
                    .as("attempt %d", i)
                    .isEqualTo(i % 4 == 2 || i % 4 == 3 ? "unconfirmed" : "succeeded");
            if (i % 4 == 0) {
                assertThat(job.result().orElseThrow().attemptId()).isEqualTo(attempts.get(i));
            }
            if (i % 4 == 2) {
                assertThat(job.review().orElseThrow().reason()).isEqualTo("unconfirmed");
            }
            if (i % 4 == 3) {
                assertThat(job.error().orElseThrow().code()).isEqualTo("gave_up");
            }
        }
    }

    @Test
    void theClaimSkipsJobsNotYetDueInsideTheIndex() {
        String plan = db.withConnection(c -> {
            try (var st = c.createStatement()) {
                st.execute("SET enable_seqscan = off");
                StringBuilder out = new StringBuilder();
                try (var rs = st.executeQuery("""
                        EXPLAIN SELECT q.id FROM jobs q WHERE q.state = 'queued' AND q.not_before <= now()
                         ORDER BY q.created_at, q.id FOR UPDATE SKIP LOCKED LIMIT 32
                        """)) {
                    while (rs.next()) {
                        out.append(rs.getString(1)).append('\n');
                    }
                }
                st.execute("RESET enable_seqscan");
                return out.toString();
            }
        });
        assertThat(plan).contains("jobs_queued_due").containsPattern("Index Cond: \\(not_before <= ");
    }

    @Test
    void fencedWritesFindTheJobByItsPrimaryKeyWhateverTheStatisticsSay() {
        // many finished jobs and a few queued, analyzed while none ran: the planner then believes no
        // job is running, and an index on state looked cheaper than the primary key
        for (int i = 0; i < 300; i++) {
            accept(io.idem.testkit.JobSpecBuilder.aJobSpec().build(), t0.plusMillis(i));
        }
        db.withConnection(c -> {
            try (var st = c.createStatement()) {
                st.executeUpdate("UPDATE jobs SET state = 'succeeded' WHERE id IN "
                        + "(SELECT id FROM jobs ORDER BY created_at LIMIT 280)");
                st.execute("ANALYZE jobs");
                return null;
            }
        });
        claimOne("a", t0.plusSeconds(1));
        for (String fenced : List.of(
                PgJobQueueStore.WRITE_AHEAD.sql(1),
                PgJobQueueStore.WRITE_AHEAD.sql(16),
                PgJobQueueStore.HOLDS_LEASE,
                PgJobQueueStore.EXTEND_LEASES,
                SettleSql.SETTLE_AND_END.sql(1),
                JobTransitionsSql.MOVE,
                JobTransitionsSql.NOTE_FAILOVER,
                JobTransitionsSql.RELEASE,
                JobDeferrals.DEFER)) {
            // the plan a prepared statement settles on after its first executions
            String plan = genericPlan(fenced);
            assertThat(plan)
                    .as(fenced)
                    .contains("jobs_pkey")
                    .doesNotContain("jobs_state_recent")
                    .doesNotContain("jobs_running_lease");
        }
    }

    /**
     * The settles of a batch are one statement over a row each: on a table of a few hundred jobs a
     * hash join that reads them all is its cheapest plan, and that is fine; on a table of real size it
     * must find each job by its primary key, and it never takes an index on the state.
     */
    @Test
    void aBatchOfSettlesFindsItsJobsByPrimaryKeyOnceTheTableHasRealSize() {
        db.withConnection(c -> {
            try (var st = c.createStatement()) {
                st.executeUpdate("""
                        INSERT INTO jobs (id, owner, state, kind, lane, model, prompt, size, n, timeout_seconds,
                                          candidates, pinned, simulate, metadata, created_at, updated_at)
                        SELECT gen_random_uuid(), 'alice', 'succeeded', 'image', 'standard', 'm', 'p', '1024x1024', 1,
                               60, '{}', false, '{}', '{}', now(), now()
                          FROM generate_series(1, 20000)
                        """);
                st.execute("ANALYZE jobs");
                return null;
            }
        });
        for (int rows : new int[] {2, 16, 64}) {
            String plan = genericPlan(SettleSql.SETTLE_AND_END.sql(rows));
            assertThat(plan)
                    .as("%d settles", rows)
                    .contains("Index Scan using jobs_pkey on jobs")
                    .doesNotContain("jobs_state_recent")
                    .doesNotContain("jobs_running_lease");
        }
    }

    /**
     * On a shared-commit writer's connection a batch of settles reaches its attempts and jobs through
     * their primary keys whatever the statistics say, even where the tables are small: a plan kept
     * from when a table was small must not read all of it for every batch as it grows.
     */
    @Test
    void aWritersBatchOfSettlesReachesItsRowsByPrimaryKeyWhateverTheTablesSize() {
        accept(io.idem.testkit.JobSpecBuilder.aJobSpec().build(), t0);
        db.withConnection(c -> {
            try (var st = c.createStatement()) {
                st.execute("ANALYZE");
                return null;
            }
        });
        for (int rows : new int[] {2, 16, 64}) {
            String settle = genericPlan(SharedCommits.WRITER_SETTINGS, SettleSql.SETTLE_AND_END.sql(rows));
            assertThat(settle)
                    .as("%d settles", rows)
                    .contains("Index Scan using jobs_pkey on jobs")
                    .contains("Index Scan using provider_attempts_pkey on provider_attempts")
                    .doesNotContain("Seq Scan on jobs")
                    .doesNotContain("Seq Scan on provider_attempts");
        }
    }

    @Test
    void onlyARunningJobCanHoldALeaseTokenSoTheTokenAloneFencesAWrite() {
        accept(io.idem.testkit.JobSpecBuilder.aJobSpec().build(), t0);
        var running = claimOne("a", t0);
        accept(io.idem.testkit.JobSpecBuilder.aJobSpec().build(), t0.plusSeconds(1));
        assertThatThrownBy(() -> db.withConnection(c -> c.createStatement()
                        .executeUpdate("UPDATE jobs SET lease_token = gen_random_uuid() WHERE state = 'queued'")))
                .isInstanceOf(UnableToQueryException.class)
                .hasMessageContaining("23514"); // check_violation
        assertThatThrownBy(() -> db.withConnection(c -> c.createStatement()
                        .executeUpdate("UPDATE jobs SET state = 'succeeded' WHERE id = '"
                                + running.job().id() + "'")))
                .isInstanceOf(UnableToQueryException.class)
                .hasMessageContaining("23514");
    }

    private String genericPlan(String sql) {
        return genericPlan("RESET ALL", sql);
    }

    /** The generic plan of {@code sql} on a connection with {@code settings}. */
    private String genericPlan(String settings, String sql) {
        StringBuilder numbered = new StringBuilder();
        int n = 0;
        for (char ch : sql.toCharArray()) {
            numbered.append(ch == '?' ? "$" + ++n : String.valueOf(ch));
        }
        String nulls = String.join(", ", java.util.Collections.nCopies(n, "NULL"));
        return db.withConnection(c -> {
            try (var st = c.createStatement()) {
                st.execute(settings);
                st.execute("PREPARE fenced AS " + numbered);
                st.execute("SET plan_cache_mode = force_generic_plan");
                StringBuilder out = new StringBuilder();
                try (var rs = st.executeQuery("EXPLAIN EXECUTE fenced(" + nulls + ")")) {
                    while (rs.next()) {
                        out.append(rs.getString(1)).append('\n');
                    }
                }
                st.execute("RESET plan_cache_mode");
                st.execute("DEALLOCATE fenced");
                st.execute("RESET ALL");
                return out.toString();
            }
        });
    }
}
