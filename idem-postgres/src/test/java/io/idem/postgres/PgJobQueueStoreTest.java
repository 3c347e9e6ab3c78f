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
                PgJobQueueStore.WRITE_AHEAD,
                PgJobQueueStore.HOLDS_LEASE,
                PgJobQueueStore.EXTEND_LEASES,
                SettleSql.SETTLE_AND_END,
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
        StringBuilder numbered = new StringBuilder();
        int n = 0;
        for (char ch : sql.toCharArray()) {
            numbered.append(ch == '?' ? "$" + ++n : String.valueOf(ch));
        }
        String nulls = String.join(", ", java.util.Collections.nCopies(n, "NULL"));
        return db.withConnection(c -> {
            try (var st = c.createStatement()) {
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
                return out.toString();
            }
        });
    }
}
