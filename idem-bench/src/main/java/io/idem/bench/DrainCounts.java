package io.idem.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one drain did, read from the drained copy after its worker stopped. Only work that began at
 * or after {@code since} counts, so the history jobs run while the queue was filled do not.
 *
 * @param succeeded jobs claimed since then that succeeded
 * @param windowSeconds first claim to last settle, by the rows' own timestamps
 * @param claims claim statements that returned at least one job (their events share actor and time)
 * @param attempts provider attempts started since then
 * @param states every job's state at the end, history included
 */
record DrainCounts(long succeeded, double windowSeconds, long claims, long attempts, Map<String, Long> states) {

    static DrainCounts read(Connection c, Instant since) throws SQLException {
        Timestamp from = Timestamp.from(since);
        Map<String, Long> states = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT state, count(*) FROM jobs GROUP BY state");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                states.put(rs.getString(1), rs.getLong(2));
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                WITH claimed AS (SELECT job_id, actor, at FROM job_events WHERE type = 'job.claimed' AND at >= ?)
                SELECT (SELECT count(*) FROM jobs j WHERE j.state = 'succeeded'
                           AND j.id IN (SELECT job_id FROM claimed)),
                       extract(epoch FROM (SELECT max(j.updated_at) FROM jobs j WHERE j.state = 'succeeded'
                                              AND j.id IN (SELECT job_id FROM claimed))
                                        - (SELECT min(at) FROM claimed)),
                       (SELECT count(*) FROM (SELECT DISTINCT actor, at FROM claimed) d),
                       (SELECT count(*) FROM provider_attempts WHERE started_at >= ?)
                """)) {
            ps.setTimestamp(1, from);
            ps.setTimestamp(2, from);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new DrainCounts(rs.getLong(1), rs.getDouble(2), rs.getLong(3), rs.getLong(4), states);
            }
        }
    }
}
