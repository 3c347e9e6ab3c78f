package io.idem.postgres;

import io.idem.core.spi.DashboardReads;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/**
 * The dashboard's series in one statement each. Window reads range over {@code started_at}
 * ({@code provider_attempts_recent} and {@code chat_attempts_by_provider}, which PostgreSQL 18
 * skip-scans per provider); money at risk reads the attempts of unknown billing (partial indexes) and
 * those whose billing became known inside the window ({@code provider_attempts_billing_known}); the
 * review depth walks the moves in and out of review ({@code job_events_review_moves}). Thread-safe.
 */
public final class PgDashboardReads implements DashboardReads {
    /** The bucket of a timestamp column, given the window's start and its step in seconds. */
    private static final String BUCKET = "floor(extract(epoch FROM (%s - ?::timestamptz)) / ?)::int";

    private static final String SPEND = """
            SELECT provider, bucket, sum(cost_usd) AS billed
              FROM (SELECT provider, %1$s AS bucket, cost_usd FROM provider_attempts
                     WHERE billable = 'yes' AND started_at >= ? AND started_at < ?
                    UNION ALL
                    SELECT provider, %1$s, cost_usd FROM chat_attempts
                     WHERE billable = 'yes' AND started_at >= ? AND started_at < ?) billed
             GROUP BY provider, bucket
             ORDER BY provider, bucket
            """.formatted(BUCKET.formatted("started_at"));

    private static final String LATENCY = """
            SELECT provider, bucket, percentile_disc(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95,
                   count(*) AS calls
              FROM (SELECT provider, %1$s AS bucket, latency_ms FROM provider_attempts
                     WHERE started_at >= ? AND started_at < ?
                    UNION ALL
                    -- a stream's latency is its time to the first token
                    SELECT provider, %1$s, CASE WHEN stream THEN first_token_ms ELSE latency_ms END
                      FROM chat_attempts
                     WHERE started_at >= ? AND started_at < ? AND outcome <> 'skipped') calls
             WHERE latency_ms IS NOT NULL
             GROUP BY provider, bucket
             ORDER BY provider, bucket
            """.formatted(BUCKET.formatted("started_at"));

    private static final String FALLBACKS =
            """
            WITH jobs_tried AS (
                SELECT %1$s AS bucket,
                       (SELECT count(*) FROM provider_attempts a WHERE a.job_id = j.id AND a.round = 1) AS tried
                  FROM jobs j
                 WHERE j.created_at >= ? AND j.created_at < ?
            ), calls_tried AS (
                SELECT %2$s AS bucket, count(*) FILTER (WHERE outcome <> 'skipped') AS tried
                  FROM chat_attempts
                 WHERE started_at >= ? AND started_at < ?
                 GROUP BY call_id
            )
            SELECT bucket, sum(job) AS jobs, sum(job_fell) AS jobs_fell, sum(call) AS calls, sum(call_fell) AS calls_fell
              FROM (SELECT bucket, 1 AS job, (tried > 1)::int AS job_fell, 0 AS call, 0 AS call_fell
                      FROM jobs_tried WHERE tried > 0
                    UNION ALL
                    SELECT bucket, 0, 0, 1, (tried > 1)::int FROM calls_tried WHERE tried > 0) t
             GROUP BY bucket
             ORDER BY bucket
            """.formatted(BUCKET.formatted("j.created_at"), BUCKET.formatted("min(started_at)"));

    /** Every bucket's end: the next bucket's start, or now for the running one. */
    private static final String ENDS = """
            ends AS (
                SELECT i, LEAST(?::timestamptz + make_interval(secs => (i + 1) * ?::double precision),
                                ?::timestamptz) AS t
                  FROM generate_series(0, ? - 1) AS i
            )""";

    private static final String MONEY_AT_RISK = """
            WITH %s, risky AS (
                SELECT started_at, NULL::timestamptz AS known_at, COALESCE(expected_cost_usd, cost_usd) AS usd
                  FROM provider_attempts WHERE billable = 'unknown'
                UNION ALL
                SELECT started_at, billing_known_at, COALESCE(expected_cost_usd, cost_usd)
                  FROM provider_attempts WHERE billing_known_at > ? AND billable <> 'unknown'
                UNION ALL
                SELECT started_at, NULL, cost_usd FROM chat_attempts WHERE billable = 'unknown'
            )
            SELECT e.i, COALESCE(sum(r.usd), 0) AS at_risk
              FROM ends e
              LEFT JOIN risky r ON r.started_at <= e.t AND (r.known_at IS NULL OR r.known_at > e.t)
             GROUP BY e.i
             ORDER BY e.i
            """.formatted(ENDS);

    /** Parked now, less the moves into review after each end, plus the moves out of it. */
    private static final String REVIEW_DEPTH = """
            WITH %s
            SELECT e.i, (SELECT count(*) FROM jobs WHERE state = 'manual_review')
                        - COALESCE((SELECT sum(CASE WHEN m.to_state = 'manual_review' THEN 1 ELSE -1 END)
                                      FROM job_events m
                                     WHERE (m.from_state = 'manual_review' OR m.to_state = 'manual_review')
                                       AND m.from_state IS DISTINCT FROM m.to_state AND m.at > e.t), 0) AS depth
              FROM ends e
             ORDER BY e.i
            """.formatted(ENDS);

    private final Database db;

    public PgDashboardReads(Database db) {
        this.db = db;
    }

    @Override
    public List<ProviderSpend> spend(Window window) {
        return query(SPEND, twice(bucketed(window)), rs -> {
            List<ProviderSpend> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new ProviderSpend(rs.getString("provider"), rs.getInt("bucket"), rs.getBigDecimal("billed")));
            }
            return out;
        });
    }

    @Override
    public List<ProviderLatency> latency(Window window) {
        return query(LATENCY, twice(bucketed(window)), rs -> {
            List<ProviderLatency> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new ProviderLatency(
                        rs.getString("provider"), rs.getInt("bucket"), rs.getLong("p95"), rs.getLong("calls")));
            }
            return out;
        });
    }

    @Override
    public List<Fallbacks> fallbacks(Window window) {
        return query(FALLBACKS, twice(bucketed(window)), rs -> {
            List<Fallbacks> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new Fallbacks(
                        rs.getInt("bucket"),
                        rs.getLong("jobs"),
                        rs.getLong("jobs_fell"),
                        rs.getLong("calls"),
                        rs.getLong("calls_fell")));
            }
            return out;
        });
    }

    @Override
    public List<BigDecimal> moneyAtRisk(Window window) {
        Object[] params = concat(ends(window), new Object[] {ts(window.start())});
        return query(MONEY_AT_RISK, params, rs -> {
            List<BigDecimal> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getBigDecimal("at_risk"));
            }
            return out;
        });
    }

    @Override
    public List<Long> reviewDepth(Window window) {
        return query(REVIEW_DEPTH, ends(window), rs -> {
            List<Long> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getLong("depth"));
            }
            return out;
        });
    }

    private interface Rows<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> T query(String sql, Object[] params, Rows<T> rows) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < params.length; i++) {
                    ps.setObject(i + 1, params[i]);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    return rows.read(rs);
                }
            }
        });
    }

    /** The bucket expression's start and step, then the range: start (inclusive) to the window's end. */
    private static Object[] bucketed(Window window) {
        return new Object[] {
            ts(window.start()), window.step().toSeconds(), ts(window.start()), ts(window.startOf(window.buckets()))
        };
    }

    /** The {@code ends} CTE's start, step, now and bucket count. */
    private static Object[] ends(Window window) {
        return new Object[] {ts(window.start()), window.step().toSeconds(), ts(window.now()), window.buckets()};
    }

    private static Object[] twice(Object[] params) {
        return concat(params, params);
    }

    private static Object[] concat(Object[] first, Object[] second) {
        Object[] out = new Object[first.length + second.length];
        System.arraycopy(first, 0, out, 0, first.length);
        System.arraycopy(second, 0, out, first.length, second.length);
        return out;
    }

    private static Timestamp ts(java.time.Instant instant) {
        return JobRows.timestamp(instant);
    }
}
