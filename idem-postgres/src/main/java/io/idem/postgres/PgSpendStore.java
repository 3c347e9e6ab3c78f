package io.idem.postgres;

import io.idem.core.budget.SpendStore;
import io.idem.core.spi.KeySpend;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

/** Spend from the attempt audit; budget threshold events in {@code provider_events}. Thread-safe. */
public final class PgSpendStore implements SpendStore, KeySpend {
    private final Database db;

    public PgSpendStore(Database db) {
        this.db = db;
    }

    @Override
    public BigDecimal providerSpendSince(String provider, Instant since) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT (SELECT COALESCE(sum(cost_usd), 0) FROM provider_attempts
                             WHERE provider = ? AND started_at >= ? AND billable IN ('yes', 'unknown'))
                         + (SELECT COALESCE(sum(cost_usd), 0) FROM chat_attempts
                             WHERE provider = ? AND started_at >= ? AND billable IN ('yes', 'unknown'))
                    """)) {
                ps.setString(1, provider);
                ps.setTimestamp(2, JobRows.timestamp(since));
                ps.setString(3, provider);
                ps.setTimestamp(4, JobRows.timestamp(since));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getBigDecimal(1);
                }
            }
        });
    }

    @Override
    public BigDecimal keySpendSince(UUID keyId, Instant since) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT (SELECT COALESCE(sum(a.cost_usd), 0)
                              FROM jobs j JOIN provider_attempts a ON a.job_id = j.id
                             WHERE j.api_key_id = ? AND j.created_at >= ? AND a.billable IN ('yes', 'unknown'))
                         + (SELECT COALESCE(sum(cost_usd), 0) FROM chat_attempts
                             WHERE api_key_id = ? AND started_at >= ? AND billable IN ('yes', 'unknown'))
                    """)) {
                ps.setObject(1, keyId);
                ps.setTimestamp(2, JobRows.timestamp(since));
                ps.setObject(3, keyId);
                ps.setTimestamp(4, JobRows.timestamp(since));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getBigDecimal(1);
                }
            }
        });
    }

    @Override
    public boolean announceOnce(
            String provider, String type, LocalDate day, BigDecimal spent, BigDecimal budget, Instant now) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO provider_events (provider, type, detail, day, at)
                    VALUES (?, ?, jsonb_build_object('spent_usd', ?::numeric, 'budget_usd', ?::numeric), ?, ?)
                    ON CONFLICT (provider, type, day) WHERE day IS NOT NULL DO NOTHING
                    """)) {
                ps.setString(1, provider);
                ps.setString(2, type);
                ps.setBigDecimal(3, spent);
                ps.setBigDecimal(4, budget);
                ps.setObject(5, day);
                ps.setTimestamp(6, JobRows.timestamp(now));
                return ps.executeUpdate() == 1;
            }
        });
    }
}
