package io.idem.postgres;

import io.idem.core.domain.Attempt;
import io.idem.core.domain.JobEventType;
import io.idem.core.domain.JobState;
import io.idem.core.domain.JobTransitions;
import io.idem.core.spi.CancelStore;
import io.idem.core.spi.Lease;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** Cancel moves on PostgreSQL, each one statement with its event. */
public final class PgCancelStore implements CancelStore {
    private final Database db;

    public PgCancelStore(Database db) {
        this.db = db;
    }

    private static final String MOVE = """
            WITH moved AS (
                UPDATE jobs
                   SET state = ?, review_reason = ?, review_since = CASE WHEN ?::text IS NULL THEN NULL ELSE ?::timestamptz END,
                       error_code = ?, error_message = ?, error_class = ?,
                       lease_token = NULL, lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                 WHERE id = ? AND state = ? AND (?::uuid IS NULL OR lease_token = ?::uuid)
                RETURNING id
            ), attempt AS (
                UPDATE provider_attempts a
                   SET status = ?, billable = COALESCE(?, a.billable),
                       error_class = COALESCE(?, a.error_class), error_code = COALESCE(?, a.error_code),
                       finished_at = COALESCE(a.finished_at, ?),
                       billing_known_at = COALESCE(a.billing_known_at,
                           CASE WHEN COALESCE(?::text, a.billable) <> 'unknown' THEN ?::timestamptz END)
                  FROM moved
                 WHERE a.id = ?::uuid AND a.job_id = moved.id
            ), events AS (
                INSERT INTO job_events (job_id, type, from_state, to_state, actor, detail, at)
                SELECT id, ?, ?, ?, ?, jsonb_strip_nulls(jsonb_build_object('attempt_id', ?::text, 'detail', ?::text)), ?
                  FROM moved
            )
            SELECT count(*) FROM moved
            """;

    private boolean move(
            UUID jobId,
            UUID leaseToken,
            JobState from,
            JobState to,
            String reviewReason,
            String errorCode,
            UUID attemptId,
            String attemptStatus,
            String billable,
            String attemptClass,
            String attemptCode,
            JobEventType eventType,
            String actor,
            String detail,
            Instant now) {
        JobTransitions.check(from, to);
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(MOVE)) {
                var ts = JobRows.timestamp(now);
                String attemptText = attemptId == null ? null : attemptId.toString();
                int i = 1;
                ps.setString(i++, to.wire());
                ps.setString(i++, reviewReason);
                ps.setString(i++, reviewReason);
                ps.setTimestamp(i++, ts);
                ps.setString(i++, errorCode);
                ps.setString(i++, errorCode == null ? null : "canceled by the client");
                ps.setString(i++, errorCode == null ? null : "canceled");
                ps.setTimestamp(i++, ts);
                ps.setObject(i++, jobId);
                ps.setString(i++, from.wire());
                ps.setObject(i++, leaseToken);
                ps.setObject(i++, leaseToken);
                ps.setString(i++, attemptStatus);
                ps.setString(i++, billable);
                ps.setString(i++, attemptClass);
                ps.setString(i++, attemptCode);
                ps.setTimestamp(i++, ts);
                ps.setString(i++, billable);
                ps.setTimestamp(i++, ts);
                ps.setString(i++, attemptText);
                ps.setString(i++, eventType.wire());
                ps.setString(i++, from.wire());
                ps.setString(i++, to.wire());
                ps.setString(i++, actor);
                ps.setString(i++, attemptText);
                ps.setString(i++, detail);
                ps.setTimestamp(i, ts);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1) == 1;
                }
            }
        });
    }

    @Override
    public Optional<Takeover> takeOver(UUID jobId, Duration holdFor, Instant now) {
        return db.inTransaction(c -> {
            UUID token;
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE jobs SET lease_token = gen_random_uuid(), lease_owner = 'canceller', lease_expires_at = ?
                     WHERE id = ? AND state = 'running'
                    RETURNING lease_token
                    """)) {
                ps.setTimestamp(1, JobRows.timestamp(now.plus(holdFor)));
                ps.setObject(2, jobId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    token = rs.getObject(1, UUID.class);
                }
            }
            Optional<Attempt> open;
            try (PreparedStatement ps = c.prepareStatement("SELECT " + JobRows.ATTEMPT_COLUMNS + """
                     FROM provider_attempts a
                    WHERE a.job_id = ? AND a.status IN ('sending', 'submitted', 'unconfirmed')
                    """)) {
                ps.setObject(1, jobId);
                try (ResultSet rs = ps.executeQuery()) {
                    open = rs.next() ? Optional.of(JobRows.attempt(rs)) : Optional.empty();
                }
            }
            return Optional.of(new Takeover(new Lease(jobId, token), open));
        });
    }

    @Override
    public boolean cancelQueued(UUID jobId, String actor, Instant now) {
        return move(
                jobId,
                null,
                JobState.QUEUED,
                JobState.CANCELED,
                null,
                "canceled",
                null,
                "failed",
                null,
                null,
                null,
                JobEventType.CANCELED,
                actor,
                null,
                now);
    }

    @Override
    public boolean cancelRunning(Lease lease, Optional<UUID> openAttempt, String actor, String detail, Instant now) {
        return move(
                lease.jobId(),
                lease.token(),
                JobState.RUNNING,
                JobState.CANCELED,
                null,
                "canceled",
                openAttempt.orElse(null),
                "failed",
                "no",
                "unavailable",
                "canceled",
                JobEventType.CANCELED,
                actor,
                detail,
                now);
    }

    @Override
    public boolean parkRunning(Lease lease, UUID openAttempt, String actor, String detail, Instant now) {
        return move(
                lease.jobId(),
                lease.token(),
                JobState.RUNNING,
                JobState.MANUAL_REVIEW,
                "cancel_unconfirmed",
                null,
                openAttempt,
                "unconfirmed",
                "unknown",
                "unconfirmed",
                "cancel_unconfirmed",
                JobEventType.MANUAL_REVIEW,
                actor,
                detail,
                now);
    }
}
