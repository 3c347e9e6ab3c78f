package io.idem.postgres;

import io.idem.core.alert.ProviderEvent;
import io.idem.core.spi.AlertLedger;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The provider event log and the alert delivery ledger, one statement per method. Thread-safe. */
public final class PgAlertLedger implements AlertLedger {
    private final Database db;

    public PgAlertLedger(Database db) {
        this.db = db;
    }

    @Override
    public List<ProviderEvent> after(long afterId, int limit) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT id, provider, type, at,
                           ARRAY(SELECT key FROM jsonb_each_text(detail) ORDER BY key) AS keys,
                           ARRAY(SELECT coalesce(value, '') FROM jsonb_each_text(detail) ORDER BY key) AS vals
                      FROM provider_events WHERE id > ? ORDER BY id LIMIT ?
                    """)) {
                ps.setLong(1, afterId);
                ps.setInt(2, limit);
                List<ProviderEvent> events = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        events.add(new ProviderEvent(
                                rs.getLong("id"),
                                rs.getString("provider"),
                                rs.getString("type"),
                                detail(rs),
                                JobRows.instant(rs, "at")));
                    }
                }
                return events;
            }
        });
    }

    @Override
    public long lastIdBefore(Instant at) {
        return db.withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT coalesce(max(id), 0) FROM provider_events WHERE at < ?")) {
                ps.setTimestamp(1, JobRows.timestamp(at));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    @Override
    public Claim claim(String alertKey, String channel, Instant at, Duration staleAfter) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    WITH mine AS (
                        INSERT INTO alert_deliveries (alert_key, channel, claimed_at) VALUES (?, ?, ?)
                        ON CONFLICT (alert_key, channel) DO UPDATE SET claimed_at = EXCLUDED.claimed_at
                         WHERE alert_deliveries.sent_at IS NULL AND alert_deliveries.claimed_at < ?
                        RETURNING 1)
                    SELECT EXISTS (SELECT 1 FROM mine) AS mine,
                           EXISTS (SELECT 1 FROM alert_deliveries
                                    WHERE alert_key = ? AND channel = ? AND sent_at IS NOT NULL) AS sent
                    """)) {
                ps.setString(1, alertKey);
                ps.setString(2, channel);
                ps.setTimestamp(3, JobRows.timestamp(at));
                ps.setTimestamp(4, JobRows.timestamp(at.minus(staleAfter)));
                ps.setString(5, alertKey);
                ps.setString(6, channel);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getBoolean("mine")) {
                        return Claim.MINE;
                    }
                    return rs.getBoolean("sent") ? Claim.SENT : Claim.HELD;
                }
            }
        });
    }

    @Override
    public void markSent(String alertKey, String channel, Instant at) {
        db.withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("UPDATE alert_deliveries SET sent_at = ? WHERE alert_key = ? AND channel = ?")) {
                ps.setTimestamp(1, JobRows.timestamp(at));
                ps.setString(2, alertKey);
                ps.setString(3, channel);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public void release(String alertKey, String channel) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "DELETE FROM alert_deliveries WHERE alert_key = ? AND channel = ? AND sent_at IS NULL")) {
                ps.setString(1, alertKey);
                ps.setString(2, channel);
                return ps.executeUpdate();
            }
        });
    }

    /** The event's detail as text pairs. */
    private static Map<String, String> detail(ResultSet rs) throws SQLException {
        String[] keys = (String[]) rs.getArray("keys").getArray();
        String[] values = (String[]) rs.getArray("vals").getArray();
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < keys.length; i++) {
            out.put(keys[i], values[i]);
        }
        return out;
    }
}
