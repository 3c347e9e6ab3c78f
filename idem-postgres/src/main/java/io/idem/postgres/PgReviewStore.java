package io.idem.postgres;

import io.idem.core.domain.JobEventType;
import io.idem.core.domain.JobState;
import io.idem.core.domain.JobTransitions;
import io.idem.core.domain.ReviewAction;
import io.idem.core.outcome.Outcome;
import io.idem.core.spi.ReviewCase;
import io.idem.core.spi.ReviewStore;
import io.idem.core.spi.StoredAsset;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Parked jobs on PostgreSQL. Reconcile holds are taken with {@code SKIP LOCKED} and a hold token;
 * every move out of manual_review is one statement that checks the state (and the hold), closes or
 * completes the attempt, and writes its event.
 */
public final class PgReviewStore implements ReviewStore {
    private final Database db;

    public PgReviewStore(Database db) {
        this.db = db;
    }

    private static final String HOLD_DUE = """
            UPDATE jobs j SET reconcile_token = gen_random_uuid(), reconcile_until = ?
             WHERE j.id IN (SELECT q.id FROM jobs q
                             WHERE q.state = 'manual_review' AND q.review_reason <> 'reconcile_expired'
                               AND (q.reconcile_until IS NULL OR q.reconcile_until < ?)
                               AND (q.reconciled_at IS NULL OR q.reconciled_at < ?)
                               AND NOT EXISTS (SELECT 1 FROM provider_attempts a
                                                WHERE a.job_id = q.id AND a.round = q.round AND a.provider = ANY(?)
                                                  AND a.status IN ('sending', 'submitted', 'unconfirmed', 'succeeded'))
                             ORDER BY q.review_since, q.id
                             FOR UPDATE SKIP LOCKED LIMIT ?)
            RETURNING j.id, j.reconcile_token
            """;

    @Override
    public List<ReviewCase> holdDue(
            int limit, Instant now, Duration holdFor, Instant notCheckedSince, Set<String> leave) {
        return db.inTransaction(c -> {
            Map<UUID, UUID> holds = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement(HOLD_DUE)) {
                ps.setTimestamp(1, JobRows.timestamp(now.plus(holdFor)));
                ps.setTimestamp(2, JobRows.timestamp(now));
                ps.setTimestamp(3, JobRows.timestamp(notCheckedSince));
                ps.setArray(4, c.createArrayOf("text", leave.toArray()));
                ps.setInt(5, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        holds.put(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class));
                    }
                }
            }
            List<ReviewCase> cases = new ArrayList<>();
            for (var job : PgJobReads.byIds(c, new ArrayList<>(holds.keySet()))) {
                cases.add(new ReviewCase(job, holds.get(job.id())));
            }
            return cases;
        });
    }

    @Override
    public Optional<ReviewCase> holdOne(UUID jobId, Instant now, Duration holdFor) {
        return db.inTransaction(c -> {
            UUID hold;
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE jobs SET reconcile_token = gen_random_uuid(), reconcile_until = ?
                     WHERE id = ? AND state = 'manual_review' AND (reconcile_until IS NULL OR reconcile_until < ?)
                    RETURNING reconcile_token
                    """)) {
                ps.setTimestamp(1, JobRows.timestamp(now.plus(holdFor)));
                ps.setObject(2, jobId);
                ps.setTimestamp(3, JobRows.timestamp(now));
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    hold = rs.getObject(1, UUID.class);
                }
            }
            return PgJobReads.byIds(c, List.of(jobId)).stream().findFirst().map(job -> new ReviewCase(job, hold));
        });
    }

    @Override
    public void letGo(ReviewCase held, Instant now) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE jobs SET reconcile_token = NULL, reconcile_until = NULL, reconciled_at = ?
                     WHERE id = ? AND reconcile_token = ?
                    """)) {
                ps.setTimestamp(1, JobRows.timestamp(now));
                ps.setObject(2, held.job().id());
                ps.setObject(3, held.hold());
                return ps.executeUpdate();
            }
        });
    }

    private static final String DELIVERED_ATTEMPT = """
            UPDATE provider_attempts
               SET status = 'succeeded', billable = 'yes', error_class = NULL, error_code = NULL,
                   http_status = COALESCE(?, http_status), provider_request_id = COALESCE(?, provider_request_id),
                   cost_usd = COALESCE(?, cost_usd), finished_at = COALESCE(finished_at, ?),
                   billing_known_at = COALESCE(billing_known_at, ?)
             WHERE id = ? AND job_id = ?
            """;

    /** Moves a parked job to succeeded with this attempt's result; fenced by state and, if given, hold. */
    private static final String SUCCEED = """
            WITH moved AS (
                UPDATE jobs j
                   SET state = 'succeeded', result_attempt_id = a.id, result_provider = a.provider,
                       review_reason = NULL, review_since = NULL, error_code = NULL, error_message = NULL,
                       error_class = NULL, reconcile_token = NULL, reconcile_until = NULL, reconciled_at = ?,
                       updated_at = ?
                  FROM provider_attempts a
                 WHERE j.id = ? AND a.id = ? AND a.job_id = j.id AND j.state = 'manual_review'
                   AND (?::uuid IS NULL OR j.reconcile_token = ?::uuid)
                   AND (?::uuid IS NOT NULL OR j.reconcile_until IS NULL OR j.reconcile_until < ?)
                RETURNING j.id, a.id AS attempt_id, a.provider
            ), events AS (
                INSERT INTO job_events (job_id, type, from_state, to_state, actor, detail, at)
                SELECT id, ?, 'manual_review', 'succeeded', ?,
                       jsonb_strip_nulls(jsonb_build_object('attempt_id', attempt_id::text, 'provider', provider,
                           'outcome', ?::text, 'note', ?::text)), ?
                  FROM moved
            )
            SELECT count(*) FROM moved
            """;

    @Override
    public boolean promote(
            ReviewCase held,
            UUID attemptId,
            Optional<Outcome.Confirmed> delivered,
            List<StoredAsset> assets,
            String actor,
            Instant now) {
        JobTransitions.check(JobState.MANUAL_REVIEW, JobState.SUCCEEDED);
        return db.inTransaction(c -> {
            markDelivered(c, held.job().id(), attemptId, delivered, now);
            PgJobQueueStore.insertAssets(c, attemptId, assets, now);
            boolean moved = succeed(
                    c,
                    held.job().id(),
                    attemptId,
                    held.hold(),
                    JobEventType.RECONCILED,
                    actor,
                    delivered.isPresent() ? "delivered" : "late_result",
                    null,
                    now);
            if (!moved) {
                c.rollback();
            }
            return moved;
        });
    }

    private static void markDelivered(
            Connection c, UUID jobId, UUID attemptId, Optional<Outcome.Confirmed> delivered, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(DELIVERED_ATTEMPT)) {
            ps.setObject(1, delivered.map(Outcome.Confirmed::httpStatus).orElse(null));
            ps.setString(
                    2, delivered.flatMap(Outcome.Confirmed::providerRequestId).orElse(null));
            ps.setBigDecimal(3, delivered.map(Outcome.Confirmed::costUsd).orElse(null));
            ps.setTimestamp(4, JobRows.timestamp(now));
            ps.setTimestamp(5, JobRows.timestamp(now));
            ps.setObject(6, attemptId);
            ps.setObject(7, jobId);
            ps.executeUpdate();
        }
    }

    private static boolean succeed(
            Connection c,
            UUID jobId,
            UUID attemptId,
            UUID hold,
            JobEventType type,
            String actor,
            String outcome,
            String note,
            Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SUCCEED)) {
            var ts = JobRows.timestamp(now);
            int i = 1;
            ps.setTimestamp(i++, ts);
            ps.setTimestamp(i++, ts);
            ps.setObject(i++, jobId);
            ps.setObject(i++, attemptId);
            ps.setObject(i++, hold);
            ps.setObject(i++, hold);
            ps.setObject(i++, hold);
            ps.setTimestamp(i++, ts);
            ps.setString(i++, type.wire());
            ps.setString(i++, actor);
            ps.setString(i++, outcome);
            ps.setString(i++, note);
            ps.setTimestamp(i, ts);
            return UnexpectedRowCountException.oneRow(count(ps), "review success", jobId);
        }
    }

    private static final String CLOSE_UNDELIVERED = """
            WITH closed AS (
                UPDATE provider_attempts
                   SET status = 'failed', billable = CASE WHEN ? THEN 'yes' ELSE 'no' END,
                       error_class = 'unavailable', error_code = 'not_delivered', finished_at = COALESCE(finished_at, ?),
                       billing_known_at = COALESCE(billing_known_at, ?)
                 WHERE id = ? AND job_id = ?
                RETURNING id, provider
            ), target AS (
                SELECT j.id,
                       EXISTS (SELECT 1 FROM unnest(j.candidates) AS c(name)
                                WHERE c.name NOT IN (SELECT a.provider FROM provider_attempts a
                                                      WHERE a.job_id = j.id AND a.round = j.round)) AS has_next
                  FROM jobs j
                 WHERE j.id = ? AND j.state = 'manual_review' AND j.reconcile_token = ?
            ), moved AS (
                UPDATE jobs j
                   SET state = CASE WHEN t.has_next THEN 'queued' ELSE 'failed' END,
                       error_code = CASE WHEN t.has_next THEN NULL ELSE 'providers_exhausted' END,
                       error_message = CASE WHEN t.has_next THEN NULL ELSE 'no candidate could serve this job' END,
                       error_class = CASE WHEN t.has_next THEN NULL ELSE 'unavailable' END,
                       review_reason = NULL, review_since = NULL, reconcile_token = NULL, reconcile_until = NULL,
                       reconciled_at = ?, updated_at = ?
                  FROM target t
                 WHERE j.id = t.id
                RETURNING j.id, j.state
            ), events AS (
                INSERT INTO job_events (job_id, type, from_state, to_state, actor, detail, at)
                SELECT m.id, 'job.reconciled', 'manual_review', m.state, ?,
                       jsonb_build_object('attempt_id', cl.id::text, 'provider', cl.provider,
                                          'outcome', 'not_delivered', 'detail', ?::text, 'billed', ?), ?
                  FROM moved m, closed cl
            )
            SELECT count(*) FROM moved
            """;

    @Override
    public boolean closeUndelivered(
            ReviewCase held, UUID attemptId, String detail, boolean billed, String actor, Instant now) {
        JobTransitions.check(JobState.MANUAL_REVIEW, JobState.QUEUED);
        JobTransitions.check(JobState.MANUAL_REVIEW, JobState.FAILED);
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(CLOSE_UNDELIVERED)) {
                var ts = JobRows.timestamp(now);
                int i = 1;
                ps.setBoolean(i++, billed);
                ps.setTimestamp(i++, ts);
                ps.setTimestamp(i++, ts);
                ps.setObject(i++, attemptId);
                ps.setObject(i++, held.job().id());
                ps.setObject(i++, held.job().id());
                ps.setObject(i++, held.hold());
                ps.setTimestamp(i++, ts);
                ps.setTimestamp(i++, ts);
                ps.setString(i++, actor);
                ps.setString(i++, detail);
                ps.setBoolean(i++, billed);
                ps.setTimestamp(i, ts);
                boolean moved = UnexpectedRowCountException.oneRow(
                        count(ps), "close undelivered", held.job().id());
                if (!moved) {
                    c.rollback();
                }
                return moved;
            }
        });
    }

    private static final String FAIL_REJECTED = """
            WITH closed AS (
                UPDATE provider_attempts
                   SET status = 'failed', billable = 'no', error_class = ?, error_code = ?,
                       finished_at = COALESCE(finished_at, ?), billing_known_at = COALESCE(billing_known_at, ?)
                 WHERE id = ? AND job_id = ?
                RETURNING id, provider
            ), moved AS (
                UPDATE jobs
                   SET state = 'failed', error_code = ?, error_message = ?, error_class = ?,
                       review_reason = NULL, review_since = NULL, reconcile_token = NULL, reconcile_until = NULL,
                       reconciled_at = ?, updated_at = ?
                 WHERE id = ? AND state = 'manual_review' AND reconcile_token = ?
                RETURNING id
            ), events AS (
                INSERT INTO job_events (job_id, type, from_state, to_state, actor, detail, at)
                SELECT m.id, 'job.reconciled', 'manual_review', 'failed', ?,
                       jsonb_build_object('attempt_id', cl.id::text, 'provider', cl.provider,
                                          'outcome', 'rejected', 'detail', ?::text), ?
                  FROM moved m, closed cl
            )
            SELECT count(*) FROM moved
            """;

    @Override
    public boolean failRejected(
            ReviewCase held, UUID attemptId, String errorClass, String code, String detail, String actor, Instant now) {
        JobTransitions.check(JobState.MANUAL_REVIEW, JobState.FAILED);
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(FAIL_REJECTED)) {
                var ts = JobRows.timestamp(now);
                int i = 1;
                ps.setString(i++, errorClass);
                ps.setString(i++, code);
                ps.setTimestamp(i++, ts);
                ps.setTimestamp(i++, ts);
                ps.setObject(i++, attemptId);
                ps.setObject(i++, held.job().id());
                ps.setString(i++, code);
                ps.setString(i++, detail);
                ps.setString(i++, errorClass);
                ps.setTimestamp(i++, ts);
                ps.setTimestamp(i++, ts);
                ps.setObject(i++, held.job().id());
                ps.setObject(i++, held.hold());
                ps.setString(i++, actor);
                ps.setString(i++, detail);
                ps.setTimestamp(i, ts);
                boolean moved = UnexpectedRowCountException.oneRow(
                        count(ps), "fail rejected", held.job().id());
                if (!moved) {
                    c.rollback();
                }
                return moved;
            }
        });
    }

    @Override
    public boolean expire(ReviewCase held, String actor, Instant now) {
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    WITH moved AS (
                        UPDATE jobs SET review_reason = 'reconcile_expired', reconcile_token = NULL,
                               reconcile_until = NULL, reconciled_at = ?, updated_at = ?
                         WHERE id = ? AND state = 'manual_review' AND reconcile_token = ?
                        RETURNING id
                    ), events AS (
                        INSERT INTO job_events (job_id, type, actor, detail, at)
                        SELECT id, 'job.review_expired', ?, '{"reason": "reconcile_expired"}', ? FROM moved
                    )
                    SELECT count(*) FROM moved
                    """)) {
                var ts = JobRows.timestamp(now);
                ps.setTimestamp(1, ts);
                ps.setTimestamp(2, ts);
                ps.setObject(3, held.job().id());
                ps.setObject(4, held.hold());
                ps.setString(5, actor);
                ps.setTimestamp(6, ts);
                return UnexpectedRowCountException.oneRow(
                        count(ps), "expire", held.job().id());
            }
        });
    }

    private static final String RESOLVE = """
            WITH moved AS (
                UPDATE jobs
                   SET state = ?, round = round + ?, review_reason = NULL, review_since = NULL,
                       error_code = ?, error_message = ?, error_class = ?, updated_at = ?,
                       -- an operator's retry is a fresh start: the job gets its whole deadline again
                       deadline_at = CASE WHEN ? > 0 THEN ?::timestamptz + make_interval(secs => deadline_seconds)
                                          ELSE deadline_at END
                 WHERE id = ? AND state = 'manual_review' AND (reconcile_until IS NULL OR reconcile_until < ?)
                RETURNING id, round
            ), closed AS (
                UPDATE provider_attempts a SET status = 'abandoned', finished_at = COALESCE(a.finished_at, ?)
                  FROM moved
                 WHERE a.job_id = moved.id AND a.status IN ('sending', 'submitted', 'unconfirmed')
                RETURNING a.id
            ), events AS (
                INSERT INTO job_events (job_id, type, from_state, to_state, actor, detail, at)
                SELECT id, 'job.resolved', 'manual_review', ?, ?,
                       jsonb_build_object('action', ?::text, 'note', ?::text, 'round', round,
                                          'abandoned_attempts', (SELECT count(*) FROM closed)), ?
                  FROM moved
            )
            SELECT count(*) FROM moved
            """;

    private boolean resolve(
            UUID jobId,
            JobState to,
            int roundStep,
            String action,
            String errorCode,
            String actor,
            String note,
            Instant now) {
        JobTransitions.check(JobState.MANUAL_REVIEW, to);
        return db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(RESOLVE)) {
                var ts = JobRows.timestamp(now);
                int i = 1;
                ps.setString(i++, to.wire());
                ps.setInt(i++, roundStep);
                ps.setString(i++, errorCode);
                ps.setString(i++, errorCode == null ? null : "failed by an operator");
                ps.setString(i++, errorCode == null ? null : "unconfirmed");
                ps.setTimestamp(i++, ts);
                ps.setInt(i++, roundStep);
                ps.setTimestamp(i++, ts);
                ps.setObject(i++, jobId);
                ps.setTimestamp(i++, ts);
                ps.setTimestamp(i++, ts);
                ps.setString(i++, to.wire());
                ps.setString(i++, actor);
                ps.setString(i++, action);
                ps.setString(i++, note);
                ps.setTimestamp(i, ts);
                return UnexpectedRowCountException.oneRow(count(ps), "resolve " + action, jobId);
            }
        });
    }

    @Override
    public boolean resolveRetry(UUID jobId, String actor, String note, Instant now) {
        return resolve(jobId, JobState.QUEUED, 1, ReviewAction.RETRY.wire(), null, actor, note, now);
    }

    @Override
    public boolean resolveFail(UUID jobId, String actor, String note, Instant now) {
        return resolve(jobId, JobState.FAILED, 0, ReviewAction.FAIL.wire(), "operator_failed", actor, note, now);
    }

    @Override
    public boolean resolveConfirm(
            UUID jobId, List<StoredAsset> assets, UUID attemptId, String actor, String note, Instant now) {
        JobTransitions.check(JobState.MANUAL_REVIEW, JobState.SUCCEEDED);
        return db.inTransaction(c -> {
            markDelivered(c, jobId, attemptId, Optional.empty(), now);
            PgJobQueueStore.insertAssets(c, attemptId, assets, now);
            boolean moved = succeed(
                    c,
                    jobId,
                    attemptId,
                    null,
                    JobEventType.RESOLVED,
                    actor,
                    ReviewAction.CONFIRM_RESULT.wire(),
                    note,
                    now);
            if (!moved) {
                c.rollback();
            }
            return moved;
        });
    }

    private static int count(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
