package io.idem.postgres;

import io.idem.core.spi.AuditEvent;
import io.idem.core.spi.AuditLog;
import java.sql.PreparedStatement;

/** Single audit events on PostgreSQL, one statement each; the detail becomes a flat JSON object. */
public final class PgAuditLog implements AuditLog {
    private final Database db;

    public PgAuditLog(Database db) {
        this.db = db;
    }

    @Override
    public void append(AuditEvent event) {
        String[] keys = event.detail().keySet().toArray(String[]::new);
        String[] values = new String[keys.length];
        for (int i = 0; i < keys.length; i++) {
            values[i] = event.detail().get(keys[i]);
        }
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO audit_events (type, actor, subject, detail, at)
                    VALUES (?, ?, ?, jsonb_object(?::text[], ?::text[]), ?)
                    """)) {
                ps.setString(1, event.type());
                ps.setString(2, event.actor());
                ps.setString(3, event.subject().orElse(null));
                ps.setArray(4, c.createArrayOf("text", keys));
                ps.setArray(5, c.createArrayOf("text", values));
                ps.setTimestamp(6, JobRows.timestamp(event.at()));
                ps.executeUpdate();
                return null;
            }
        });
    }
}
