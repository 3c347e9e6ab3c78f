package io.idem.postgres;

import io.idem.core.domain.JobEventType;
import io.idem.core.domain.JobState;
import io.idem.core.domain.JobTransitions;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.Lease;
import io.idem.core.spi.Settlement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/**
 * The lease-fenced moves of a running job, each one statement that also writes its event. A row
 * count of 0 means the lease is gone (DESIGN §4 step 4); the caller keeps the outcome on the attempt.
 * The fence is {@code id = ? AND lease_token = ?} alone ({@link PgJobQueueStore} says why).
 */
final class JobTransitionsSql {

    /** A move out of {@code running}: its columns, and their parameters as {@link #bindEnd} sets them. */
    static final String END_INPUT = "job_id, lease_token, to_state, result_provider, result_attempt, job_error_code,"
            + " job_error_message, job_error_class, review_reason, event_type, actor, trace_attempt, provider";

    static final String END_ROW =
            "?::uuid, ?::uuid, ?::text, ?::text, ?::uuid, ?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::text, ?::text";

    /**
     * The fenced move of each job of {@code input AS i} (its {@link #END_INPUT} columns and {@code at}),
     * by primary key and lease token; a settle adds what it returns.
     */
    static final String MOVED = """
            UPDATE jobs
               SET state = i.to_state, result_provider = i.result_provider, result_attempt_id = i.result_attempt,
                   error_code = i.job_error_code, error_message = i.job_error_message,
                   error_class = i.job_error_class, review_reason = i.review_reason,
                   review_since = CASE WHEN i.review_reason IS NOT NULL THEN i.at END,
                   lease_token = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = i.at
              FROM input i
             WHERE jobs.id = i.job_id AND jobs.lease_token = i.lease_token AND jobs.result_attempt_id IS NULL""";

    /** The event of each move of {@code moved AS m}, joined to its {@code input} row on the given condition. */
    static String movedEvents(String joinOn) {
        return """
                INSERT INTO job_events (job_id, type, from_state, to_state, actor, detail, at)
                SELECT m.id, i.event_type, 'running', i.to_state, i.actor,
                       jsonb_strip_nulls(jsonb_build_object(
                           'attempt_id', i.trace_attempt, 'provider', i.provider, 'code', i.job_error_code,
                           'reason', i.review_reason, 'message', i.job_error_message)),
                       i.at
                  FROM moved m JOIN input i ON %s""".formatted(joinOn);
    }

    /**
     * A fenced move and its event, one job: the statement is the event's insert, so its row count is
     * the move's (1, or 0 when the lease is gone). A settle's move is the same, for a batch of jobs at
     * once ({@link SettleSql}).
     */
    static final String MOVE = """
            WITH input (%s, at) AS (VALUES (%s, ?::timestamptz)),
            moved AS (%s
                RETURNING jobs.id
            )
            %s
            """.formatted(END_INPUT, END_ROW, MOVED, movedEvents("i.job_id = m.id"));

    static final String NOTE_FAILOVER = """
            INSERT INTO job_events (job_id, type, actor, detail, at)
            SELECT j.id, 'attempt.failed_over', ?,
                   jsonb_strip_nulls(jsonb_build_object(
                       'attempt_id', a.id::text, 'provider', a.provider, 'error_class', a.error_class,
                       'code', a.error_code, 'http_status', NULLIF(a.http_status, 0))),
                   ?
              FROM jobs j JOIN provider_attempts a ON a.id = ?
             WHERE j.id = ? AND j.lease_token = ?
            """;

    static final String RELEASE = """
            WITH moved AS (
                UPDATE jobs SET state = 'queued', lease_token = NULL, lease_owner = NULL,
                       lease_expires_at = NULL, updated_at = ?
                 WHERE id = ? AND lease_token = ?
                   AND NOT EXISTS (SELECT 1 FROM provider_attempts a WHERE a.job_id = jobs.id
                                    AND a.status IN ('sending', 'submitted', 'unconfirmed'))
                RETURNING id
            ), events AS (
                INSERT INTO job_events (job_id, type, from_state, to_state, actor, detail, at)
                SELECT id, 'job.requeued', 'running', 'queued', ?, '{"reason": "worker_shutdown"}', ? FROM moved
            )
            SELECT count(*) FROM moved
            """;

    /** Applies a settlement's job move; {@code false} when the lease was lost. */
    boolean apply(Connection c, Lease lease, Settlement settlement, String actor, Instant now) throws SQLException {
        if (settlement.move() instanceof JobMove.Continue) {
            return noteFailover(c, lease, settlement.attemptId(), actor, now);
        }
        return move(c, lease, endOf(settlement), actor, now);
    }

    /** Where a settlement that ends the job's run takes it (not a failover), and what it writes. */
    static End endOf(Settlement settlement) {
        UUID attempt = settlement.attemptId();
        String provider = settlement.provider();
        return switch (settlement.move()) {
            case JobMove.Succeed succeed ->
                new End(
                        JobState.SUCCEEDED,
                        JobEventType.SUCCEEDED,
                        new Columns(attempt, null, null, null, null, attempt, provider));
            case JobMove.Fail fail -> failEnd(fail, attempt, provider);
            case JobMove.Park park ->
                new End(
                        JobState.MANUAL_REVIEW,
                        JobEventType.MANUAL_REVIEW,
                        new Columns(null, null, null, null, park.reason(), attempt, provider));
            case JobMove.Continue next -> throw new IllegalArgumentException("a failover does not end the run");
        };
    }

    private static End failEnd(JobMove.Fail fail, UUID attemptId, String provider) {
        return new End(
                JobState.FAILED,
                JobEventType.FAILED,
                new Columns(null, fail.code(), fail.message(), fail.errorClass(), null, attemptId, provider));
    }

    boolean fail(Connection c, Lease lease, JobMove.Fail fail, String actor, Instant now) throws SQLException {
        return move(c, lease, failEnd(fail, null, null), actor, now);
    }

    boolean release(Connection c, Lease lease, String actor, Instant now) throws SQLException {
        JobTransitions.check(JobState.RUNNING, JobState.QUEUED);
        try (PreparedStatement ps = c.prepareStatement(RELEASE)) {
            ps.setTimestamp(1, JobRows.timestamp(now));
            ps.setObject(2, lease.jobId());
            ps.setObject(3, lease.token());
            ps.setString(4, actor);
            ps.setTimestamp(5, JobRows.timestamp(now));
            return UnexpectedRowCountException.oneRow(count(ps), "release", lease.jobId());
        }
    }

    /**
     * What a move writes besides the state. {@code resultAttempt} set means success; {@code
     * traceAttempt} and {@code provider} only name the attempt in the event.
     */
    record Columns(
            UUID resultAttempt,
            String errorCode,
            String errorMessage,
            String errorClass,
            String reviewReason,
            UUID traceAttempt,
            String provider) {}

    /** A move out of {@code running}: the state, its event and the columns it writes. */
    record End(JobState to, JobEventType type, Columns columns) {}

    private boolean move(Connection c, Lease lease, End end, String actor, Instant now) throws SQLException {
        JobTransitions.check(JobState.RUNNING, end.to());
        try (PreparedStatement ps = c.prepareStatement(MOVE)) {
            ps.setTimestamp(bindEnd(ps, 1, lease, end, actor), JobRows.timestamp(now));
            return UnexpectedRowCountException.oneRow(
                    ps.executeUpdate(), "move to " + end.to().wire(), lease.jobId());
        }
    }

    /** Binds an {@link #END_ROW} from parameter {@code from}; returns the next parameter index. */
    static int bindEnd(PreparedStatement ps, int from, Lease lease, End end, String actor) throws SQLException {
        Columns col = end.columns();
        int i = from;
        ps.setObject(i++, lease.jobId());
        ps.setObject(i++, lease.token());
        ps.setString(i++, end.to().wire());
        ps.setString(i++, col.resultAttempt() == null ? null : col.provider());
        ps.setObject(i++, col.resultAttempt());
        ps.setString(i++, col.errorCode());
        ps.setString(i++, col.errorMessage());
        ps.setString(i++, col.errorClass());
        ps.setString(i++, col.reviewReason());
        ps.setString(i++, end.type().wire());
        ps.setString(i++, actor);
        ps.setString(i++, col.traceAttempt() == null ? null : col.traceAttempt().toString());
        ps.setString(i++, col.provider());
        return i;
    }

    private boolean noteFailover(Connection c, Lease lease, UUID attemptId, String actor, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(NOTE_FAILOVER)) {
            ps.setString(1, actor);
            ps.setTimestamp(2, JobRows.timestamp(now));
            ps.setObject(3, attemptId);
            ps.setObject(4, lease.jobId());
            ps.setObject(5, lease.token());
            return UnexpectedRowCountException.oneRow(ps.executeUpdate(), "failover note", lease.jobId());
        }
    }

    static int count(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
