package io.idem.postgres;

import io.idem.core.domain.JobState;
import io.idem.core.domain.JobTransitions;
import io.idem.core.spi.Deferral;
import io.idem.core.spi.Lease;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The deferral of a running job: back to the queue until its not-before time, in one fenced
 * statement that also writes its {@code job.deferred} event (each closed candidate, why, until when).
 */
final class JobDeferrals {
    static final String DEFER = """
            WITH moved AS (
                UPDATE jobs SET state = 'queued', not_before = ?, round = round + ?, lease_token = NULL,
                       lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
                 WHERE id = ? AND lease_token = ?
                   AND NOT EXISTS (SELECT 1 FROM provider_attempts a WHERE a.job_id = jobs.id
                                    AND a.status IN ('sending', 'submitted', 'unconfirmed'))
                RETURNING id, round
            ), events AS (
                INSERT INTO job_events (job_id, type, from_state, to_state, actor, detail, at)
                SELECT id, 'job.deferred', 'running', 'queued', ?,
                       jsonb_build_object(
                           'not_before', ?::text, 'round', round,
                           'candidates', (SELECT jsonb_agg(jsonb_build_object(
                                                  'provider', c.provider, 'reason', c.reason, 'until', c.until)
                                                  ORDER BY c.ord)
                                            FROM unnest(?::text[], ?::text[], ?::text[])
                                                 WITH ORDINALITY AS c(provider, reason, until, ord))),
                       ?
                  FROM moved
            )
            SELECT count(*) FROM moved
            """;

    private JobDeferrals() {}

    /** {@code false} when the lease was lost (or a call is open, which a deferral must never hide). */
    static boolean defer(Connection c, Lease lease, Deferral deferral, String actor, Instant now) throws SQLException {
        JobTransitions.check(JobState.RUNNING, JobState.QUEUED);
        try (PreparedStatement ps = c.prepareStatement(DEFER)) {
            var ts = JobRows.timestamp(now);
            int i = 1;
            ps.setTimestamp(i++, JobRows.timestamp(deferral.notBefore()));
            ps.setInt(i++, deferral.newRound() ? 1 : 0);
            ps.setTimestamp(i++, ts);
            ps.setObject(i++, lease.jobId());
            ps.setObject(i++, lease.token());
            ps.setString(i++, actor);
            ps.setString(i++, deferral.notBefore().toString());
            var closed = deferral.closed();
            ps.setArray(
                    i++,
                    c.createArrayOf(
                            "text",
                            closed.stream().map(Deferral.Closed::provider).toArray()));
            ps.setArray(
                    i++,
                    c.createArrayOf(
                            "text", closed.stream().map(Deferral.Closed::reason).toArray()));
            ps.setArray(
                    i++,
                    c.createArrayOf(
                            "text",
                            closed.stream().map(d -> d.until().toString()).toArray()));
            ps.setTimestamp(i, ts);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return UnexpectedRowCountException.oneRow(rs.getInt(1), "defer", lease.jobId());
            }
        }
    }
}
