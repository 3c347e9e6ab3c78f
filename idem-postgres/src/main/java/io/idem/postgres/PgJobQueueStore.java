package io.idem.postgres;

import io.idem.core.domain.JobState;
import io.idem.core.moderation.ModerationVerdict;
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
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;

/**
 * The engine's job storage on PostgreSQL (DESIGN §4). Claims and sweeps are single statements with
 * {@code SKIP LOCKED} (a claim takes no job before its {@code not_before}); every job write names the lease token and reads its row count (0 = the lease
 * is gone); attempt outcomes are written unfenced so a late result always lands. A fence is {@code id
 * = ? AND lease_token = ?} and nothing more: the table's check constraint lets only a running job
 * hold a token, and a {@code state = 'running'} beside it leads the planner onto an index on {@code
 * state}, where every job ever claimed left an entry (dead until vacuumed) that each fenced write
 * would walk, instead of the primary key. The hot writes of
 * a running job (write-ahead, submitted, settle, fail) share commits with other jobs' ({@link
 * Database#inSharedTransaction}): each returns only once its own rows are durable.
 */
public final class PgJobQueueStore implements JobQueueStore {
    private final Database db;
    private final JobTransitionsSql transitions = new JobTransitionsSql();

    public PgJobQueueStore(Database db) {
        this.db = db;
    }

    private static final String CLAIM = """
            WITH claimed AS (
                UPDATE jobs j
                   SET state = 'running', lease_token = gen_random_uuid(), lease_owner = ?,
                       lease_expires_at = ?, updated_at = ?
                 WHERE j.id IN (SELECT q.id FROM jobs q WHERE q.state = 'queued' AND q.not_before <= ?
                                 ORDER BY q.created_at, q.id
                                 FOR UPDATE SKIP LOCKED LIMIT ?)
                RETURNING j.*
            ), events AS (
                INSERT INTO job_events (job_id, type, from_state, to_state, actor, detail, at)
                SELECT id, 'job.claimed', 'queued', 'running', ?, jsonb_build_object('round', round), ?
                  FROM claimed
            )
            SELECT %s, j.lease_token,
                   ARRAY(SELECT a.provider FROM provider_attempts a
                          WHERE a.job_id = j.id AND a.round = j.round) AS attempted,
                   EXISTS (SELECT 1 FROM api_keys k
                            WHERE k.id = j.api_key_id
                              AND (k.daily_budget_usd IS NOT NULL OR k.monthly_budget_usd IS NOT NULL)) AS key_budgeted
              FROM claimed j
            """.formatted(JobRows.JOB_COLUMNS);

    @Override
    public List<ClaimedJob> claim(String workerId, int limit, Instant now, Duration leaseFor) {
        String actor = "worker:" + workerId;
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(CLAIM)) {
                ps.setString(1, actor);
                ps.setTimestamp(2, JobRows.timestamp(now.plus(leaseFor)));
                ps.setTimestamp(3, JobRows.timestamp(now));
                ps.setTimestamp(4, JobRows.timestamp(now));
                ps.setInt(5, limit);
                ps.setString(6, actor);
                ps.setTimestamp(7, JobRows.timestamp(now));
                List<ClaimedJob> claimed = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        var job = JobRows.job(rs, List.of(), List.of());
                        var lease = new Lease(job.id(), rs.getObject("lease_token", UUID.class));
                        claimed.add(new ClaimedJob(
                                job,
                                lease,
                                new HashSet<>(JobRows.strings(rs.getArray("attempted"))),
                                rs.getBoolean("key_budgeted"),
                                now));
                    }
                }
                return claimed;
            }
        });
    }

    /**
     * A heartbeat takes no row lock another transaction holds: a shared commit may hold several of
     * this worker's jobs in any order, and waiting on them in another order deadlocks. A job skipped
     * now is one being written right now; the next heartbeat extends it, long before its lease ends.
     */
    static final String EXTEND_LEASES = """
            UPDATE jobs SET lease_expires_at = ?
             WHERE id IN (SELECT id FROM jobs WHERE id = ANY (?) AND lease_token = ANY (?)
                           FOR NO KEY UPDATE SKIP LOCKED)
            """;

    @Override
    public int extendLeases(Collection<Lease> leases, Instant until) {
        UUID[] ids = leases.stream().map(Lease::jobId).toArray(UUID[]::new);
        UUID[] tokens = leases.stream().map(Lease::token).toArray(UUID[]::new);
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(EXTEND_LEASES)) {
                ps.setTimestamp(1, JobRows.timestamp(until));
                ps.setArray(2, c.createArrayOf("uuid", ids));
                ps.setArray(3, c.createArrayOf("uuid", tokens));
                return ps.executeUpdate();
            }
        });
    }

    /**
     * The write-aheads of a batch, one row each: an attempt is written only where its job still
     * holds the lease it names. The lease is looked up for each row on its own (a lateral query with
     * a limit is never turned into a join), by the job's primary key whatever the statistics say.
     */
    static final RowWork.Statement WRITE_AHEAD = RowWork.Statement.answeredByReads(
            """
            INSERT INTO provider_attempts (id, job_id, provider, model, round, status, billable, cost_usd,
                                           expected_cost_usd, started_at)
            SELECT r.id, j.id, r.provider, r.model, r.round, 'sending', 'unknown', r.cost, r.cost, r.started_at
              FROM (VALUES %s) AS r (id, provider, model, round, cost, started_at, job_id, lease_token),
                   LATERAL (SELECT jobs.id FROM jobs WHERE jobs.id = r.job_id AND jobs.lease_token = r.lease_token
                             LIMIT 1) AS j
            ON CONFLICT DO NOTHING
            RETURNING id
            """, "(?::uuid, ?::text, ?::text, ?::integer, ?::numeric, ?::timestamptz, ?::uuid, ?::uuid)");

    @Override
    public AheadResult writeAhead(Lease lease, AttemptDraft draft, Instant now) {
        return db.inSharedTransaction(new RowWork<>(
                WRITE_AHEAD,
                draft.attemptId(),
                (c, ps, first) -> {
                    int i = first;
                    ps.setObject(i++, draft.attemptId());
                    ps.setString(i++, draft.provider());
                    ps.setString(i++, draft.vendorModel());
                    ps.setInt(i++, draft.round());
                    ps.setBigDecimal(i++, draft.expectedCostUsd());
                    ps.setTimestamp(i++, JobRows.timestamp(now));
                    ps.setObject(i++, lease.jobId());
                    ps.setObject(i++, lease.token());
                    return i;
                },
                (c, written) -> {
                    if (written) {
                        return AheadResult.WRITTEN;
                    }
                    return holdsLease(c, lease) ? AheadResult.ALREADY_ATTEMPTED : AheadResult.LEASE_LOST;
                }));
    }

    static final String HOLDS_LEASE = "SELECT 1 FROM jobs WHERE id = ? AND lease_token = ?";

    private static boolean holdsLease(Connection c, Lease lease) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(HOLDS_LEASE)) {
            ps.setObject(1, lease.jobId());
            ps.setObject(2, lease.token());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public void noteSkipped(Lease lease, String provider, String reason, String actor, Instant now) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO job_events (job_id, type, actor, detail, at)
                    SELECT id, 'candidate.skipped', ?, jsonb_build_object('provider', ?::text, 'reason', ?::text), ?
                      FROM jobs WHERE id = ? AND lease_token = ?
                    """)) {
                ps.setString(1, actor);
                ps.setString(2, provider);
                ps.setString(3, reason);
                ps.setTimestamp(4, JobRows.timestamp(now));
                ps.setObject(5, lease.jobId());
                ps.setObject(6, lease.token());
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public void markSubmitted(UUID attemptId, String providerRequestId) {
        db.inSharedTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE provider_attempts SET status = 'submitted', provider_request_id = ? WHERE id = ? AND status = 'sending'")) {
                ps.setString(1, providerRequestId);
                ps.setObject(2, attemptId);
                return ps.executeUpdate();
            }
        });
    }

    private static final String INSERT_ASSETS = """
            INSERT INTO assets (id, job_id, attempt_id, mime_type, bytes, sha256, location, created_at, content)
            SELECT k.id, a.job_id, a.id, k.mime_type, k.bytes, k.sha256, k.location, ?, k.content
              FROM provider_attempts a, %s
             WHERE a.id = ?
            ON CONFLICT (id) DO NOTHING
            """.formatted(SettleSql.ASSET_ROWS);

    @Override
    public boolean settle(Lease lease, Settlement settlement, String actor, Instant now) {
        RowWork.Written<Boolean> verdict = (c, moved) -> {
            if (moved && settlement.verdict().isPresent()) {
                noteVerdict(c, lease, settlement, settlement.verdict().get(), actor, now);
            }
            return moved;
        };
        if (settlement.move() instanceof JobMove.Continue) {
            return db.inSharedTransaction(c -> {
                SettleSql.recordOutcome(c, settlement, now);
                return verdict.result(c, transitions.apply(c, lease, settlement, actor, now));
            });
        }
        return db.inSharedTransaction(SettleSql.settleAndEnd(lease, settlement, actor, now, verdict));
    }

    /** Audits output moderation's verdict on the attempt's result, beside the job's move. */
    private static void noteVerdict(
            Connection c, Lease lease, Settlement settlement, ModerationVerdict verdict, String actor, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO job_events (job_id, type, actor, detail, at)
                VALUES (?, 'output.moderated', ?, jsonb_build_object(
                    'attempt_id', ?::text, 'moderator', ?::text, 'flagged', ?, 'unavailable', ?,
                    'categories', to_jsonb(?::text[])), ?)
                """)) {
            ps.setObject(1, lease.jobId());
            ps.setString(2, actor);
            ps.setString(3, settlement.attemptId().toString());
            ps.setString(4, verdict.moderator());
            ps.setBoolean(5, verdict.flagged());
            ps.setBoolean(6, verdict.unavailable());
            ps.setArray(7, c.createArrayOf("text", verdict.categories().toArray()));
            ps.setTimestamp(8, JobRows.timestamp(now));
            ps.executeUpdate();
        }
    }

    static void insertAssets(Connection c, UUID attemptId, List<StoredAsset> assets, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(INSERT_ASSETS)) {
            ps.setTimestamp(1, JobRows.timestamp(now));
            ps.setObject(SettleSql.bindAssetRows(c, ps, 2, assets), attemptId);
            ps.executeUpdate();
        }
    }

    @Override
    public boolean finish(Lease lease, JobMove.Fail failure, String actor, Instant now) {
        return db.inSharedTransaction(c -> transitions.fail(c, lease, failure, actor, now));
    }

    @Override
    public boolean release(Lease lease, String actor, Instant now) {
        return db.inTransaction(c -> transitions.release(c, lease, actor, now));
    }

    @Override
    public boolean defer(Lease lease, Deferral deferral, String actor, Instant now) {
        return db.withConnection(c -> JobDeferrals.defer(c, lease, deferral, actor, now));
    }

    private static final String SWEEP = """
            WITH expired AS (
                SELECT j.id,
                       EXISTS (SELECT 1 FROM provider_attempts a
                                WHERE a.job_id = j.id AND a.status IN ('sending', 'submitted', 'unconfirmed')) AS has_open
                  FROM jobs j
                 WHERE j.state = 'running' AND j.lease_expires_at < ?
                 ORDER BY j.lease_expires_at
                 FOR UPDATE SKIP LOCKED
                 LIMIT ?
            ), lost_attempts AS (
                UPDATE provider_attempts a
                   SET status = 'unconfirmed', error_class = 'unconfirmed', error_code = 'worker_lost',
                       billable = 'unknown', finished_at = ?
                  FROM expired e
                 WHERE a.job_id = e.id AND a.status IN ('sending', 'submitted')
            ), moved AS (
                UPDATE jobs j
                   SET state = CASE WHEN e.has_open THEN 'manual_review' ELSE 'queued' END,
                       review_reason = CASE WHEN e.has_open THEN 'worker_lost' END,
                       review_since = CASE WHEN e.has_open THEN ?::timestamptz END,
                       lease_token = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                  FROM expired e
                 WHERE j.id = e.id
                RETURNING j.id, j.state, j.lease_owner AS previous_owner, e.has_open
            ), events AS (
                INSERT INTO job_events (job_id, type, from_state, to_state, actor, detail, at)
                SELECT id, CASE WHEN has_open THEN 'job.manual_review' ELSE 'job.requeued' END,
                       'running', state, 'sweeper',
                       jsonb_build_object('reason', CASE WHEN has_open THEN 'worker_lost' ELSE 'lease_expired' END),
                       ?
                  FROM moved
            )
            SELECT count(*) FROM moved
            """;

    @Override
    public int sweepExpiredLeases(Instant now, int limit) {
        // both targets are on the whitelist; checked here so a change there cannot silently break this
        io.idem.core.domain.JobTransitions.check(JobState.RUNNING, JobState.MANUAL_REVIEW);
        io.idem.core.domain.JobTransitions.check(JobState.RUNNING, JobState.QUEUED);
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(SWEEP)) {
                var ts = JobRows.timestamp(now);
                ps.setTimestamp(1, ts);
                ps.setInt(2, limit);
                ps.setTimestamp(3, ts);
                ps.setTimestamp(4, ts);
                ps.setTimestamp(5, ts);
                ps.setTimestamp(6, ts);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    static void setNullableString(PreparedStatement ps, int index, String value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.VARCHAR);
        } else {
            ps.setString(index, value);
        }
    }

    @Override
    public BigDecimal costSoFar(UUID jobId) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT COALESCE(sum(cost_usd), 0) FROM provider_attempts
                     WHERE job_id = ? AND billable IN ('yes', 'unknown')
                    """)) {
                ps.setObject(1, jobId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getBigDecimal(1);
                }
            }
        });
    }
}
