package io.idem.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * Per-job phases of a drain, from the rows' own timestamps: from the claim commit to the job's
 * start ({@code started_at} is taken just before the write-ahead insert), from there to the outcome
 * ({@code finished_at}: write-ahead commit, vendor call, {@code markSubmitted} commit, result file),
 * and the vendor call as the worker timed it ({@code latency_ms}, whole milliseconds; it includes the
 * {@code markSubmitted} commit, which runs inside the adapter). The settle commit has no timestamp
 * of its own.
 */
record DrainTimings(
        double claimToStartP50,
        double startToOutcomeP50,
        double startToOutcomeP99,
        double vendorCallP50,
        double vendorCallP99) {

    static DrainTimings read(Connection c, Instant since) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                WITH claimed AS (SELECT job_id, min(at) AS at FROM job_events
                                  WHERE type = 'job.claimed' AND at >= ? GROUP BY job_id),
                     phases AS (
                         SELECT extract(epoch FROM a.started_at - c.at) * 1000 AS wait_ms,
                                extract(epoch FROM a.finished_at - a.started_at) * 1000 AS run_ms,
                                a.latency_ms AS call_ms
                           FROM provider_attempts a JOIN claimed c ON c.job_id = a.job_id
                          WHERE a.finished_at IS NOT NULL)
                SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY wait_ms),
                       percentile_cont(0.5) WITHIN GROUP (ORDER BY run_ms),
                       percentile_cont(0.99) WITHIN GROUP (ORDER BY run_ms),
                       percentile_cont(0.5) WITHIN GROUP (ORDER BY call_ms),
                       percentile_cont(0.99) WITHIN GROUP (ORDER BY call_ms)
                  FROM phases
                """)) {
            ps.setTimestamp(1, Timestamp.from(since));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new DrainTimings(
                        rs.getDouble(1), rs.getDouble(2), rs.getDouble(3), rs.getDouble(4), rs.getDouble(5));
            }
        }
    }

    static Table table() {
        return new Table(
                "worker concurrency",
                "slot time per job ms (concurrency ÷ jobs/s)",
                "claim → start p50 ms",
                "start → outcome p50 / p99 ms",
                "vendor call p50 / p99 ms (incl. markSubmitted commit)");
    }

    void addRow(Table table, int workers, double slotMillis) {
        table.row(
                workers,
                Table.num(slotMillis, 2),
                Table.num(claimToStartP50, 2),
                Table.num(startToOutcomeP50, 2) + " / " + Table.num(startToOutcomeP99, 2),
                Table.num(vendorCallP50, 0) + " / " + Table.num(vendorCallP99, 0));
    }
}
