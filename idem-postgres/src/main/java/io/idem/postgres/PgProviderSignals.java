package io.idem.postgres;

import io.idem.core.spi.ProviderSignals;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;

/**
 * Health verdicts and static-tier activity, each one statement that changes its small table and,
 * when the change is news, writes the {@code provider_events} row with it. Nodes racing on one
 * change serialise on the row: the second finds nothing changed and writes no event. Thread-safe.
 */
public final class PgProviderSignals implements ProviderSignals {
    private static final String HEALTH = """
            WITH changed AS (
                INSERT INTO provider_health AS h (provider, healthy, changed_at) VALUES (?, ?, ?)
                ON CONFLICT (provider) DO UPDATE SET healthy = EXCLUDED.healthy, changed_at = EXCLUDED.changed_at
                 WHERE h.healthy <> EXCLUDED.healthy
                RETURNING healthy, xmax = 0 AS first
            ), event AS (
                INSERT INTO provider_events (provider, type, detail, at)
                SELECT ?, CASE WHEN healthy THEN 'provider.recovered' ELSE 'provider.unhealthy' END,
                       jsonb_build_object('detail', ?::text, 'node', ?::text), ?
                  FROM changed
                 WHERE NOT (first AND healthy)
                RETURNING 1
            )
            SELECT count(*) FROM event
            """;

    private static final String STATIC_SERVED = """
            WITH stretch AS (
                INSERT INTO static_tier_activity AS t (provider, active_since, last_served_at) VALUES (?, ?, ?)
                ON CONFLICT (provider) DO UPDATE
                   SET last_served_at = greatest(t.last_served_at, EXCLUDED.last_served_at),
                       active_since = CASE WHEN t.last_served_at < EXCLUDED.last_served_at - ?::interval
                                           THEN EXCLUDED.active_since ELSE t.active_since END
                RETURNING active_since
            ), event AS (
                INSERT INTO provider_events (provider, type, detail, at)
                SELECT ?, 'tier.static_active', jsonb_build_object('since', ?::text), ?
                  FROM stretch
                 WHERE active_since = ?
                RETURNING 1
            )
            SELECT count(*) FROM event
            """;

    private final Database db;

    public PgProviderSignals(Database db) {
        this.db = db;
    }

    @Override
    public boolean health(String provider, boolean healthy, String detail, String node, Instant at) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(HEALTH)) {
                var ts = JobRows.timestamp(at);
                ps.setString(1, provider);
                ps.setBoolean(2, healthy);
                ps.setTimestamp(3, ts);
                ps.setString(4, provider);
                ps.setString(5, detail);
                ps.setString(6, node);
                ps.setTimestamp(7, ts);
                return wrote(ps);
            }
        });
    }

    @Override
    public boolean staticTierServed(String provider, Instant at) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(STATIC_SERVED)) {
                var ts = JobRows.timestamp(at);
                ps.setString(1, provider);
                ps.setTimestamp(2, ts);
                ps.setTimestamp(3, ts);
                ps.setString(4, STATIC_TIER_GAP.toSeconds() + " seconds");
                ps.setString(5, provider);
                ps.setString(6, at.toString());
                ps.setTimestamp(7, ts);
                ps.setTimestamp(8, ts);
                return wrote(ps);
            }
        });
    }

    private static boolean wrote(PreparedStatement ps) throws java.sql.SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1) > 0;
        }
    }
}
