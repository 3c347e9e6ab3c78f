package io.idem.postgres;

import io.idem.core.spi.Webhooks;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** Vendor callback bookkeeping on PostgreSQL; a delivery's digest is its primary key. Thread-safe. */
public final class PgWebhooks implements Webhooks {
    private final Database db;

    public PgWebhooks(Database db) {
        this.db = db;
    }

    @Override
    public boolean recordDelivery(byte[] digest, String provider, UUID attemptId, Instant now) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO webhook_deliveries (digest, provider, attempt_id, received_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (digest) DO NOTHING
                    """)) {
                ps.setBytes(1, digest);
                ps.setString(2, provider);
                ps.setObject(3, attemptId);
                ps.setTimestamp(4, JobRows.timestamp(now));
                return ps.executeUpdate() == 1;
            }
        });
    }

    @Override
    public Optional<UUID> jobOfAttempt(UUID attemptId, String provider) {
        return db.withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT job_id FROM provider_attempts WHERE id = ? AND provider = ?")) {
                ps.setObject(1, attemptId);
                ps.setString(2, provider);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getObject(1, UUID.class)) : Optional.empty();
                }
            }
        });
    }
}
