package io.idem.postgres;

import io.idem.core.spi.IncidentLedger;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The threshold rules' incidents, one statement per method; the partial unique index {@code
 * alert_incidents_one_open} keeps one open incident per rule and subject across nodes. Thread-safe.
 */
public final class PgIncidentLedger implements IncidentLedger {
    private static final String COLUMNS = "id, rule, subject, since, alerted_at, resolved_at";

    private final Database db;

    public PgIncidentLedger(Database db) {
        this.db = db;
    }

    @Override
    public Incident open(String rule, String subject, Instant at) {
        return db.withConnection(c -> {
            // The no-op update makes RETURNING give the open row whether this call opened it or not.
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO alert_incidents (rule, subject, since) VALUES (?, ?, ?)
                    ON CONFLICT (rule, subject) WHERE resolved_at IS NULL DO UPDATE SET rule = EXCLUDED.rule
                    RETURNING %s
                    """.formatted(COLUMNS))) {
                ps.setString(1, rule);
                ps.setString(2, subject);
                ps.setTimestamp(3, JobRows.timestamp(at));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return incident(rs);
                }
            }
        });
    }

    @Override
    public void markAlerted(long id, Instant at) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE alert_incidents SET alerted_at = ? WHERE id = ? AND alerted_at IS NULL")) {
                ps.setTimestamp(1, JobRows.timestamp(at));
                ps.setLong(2, id);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public Optional<Incident> resolve(String rule, String subject, Instant at) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE alert_incidents SET resolved_at = ?
                     WHERE rule = ? AND subject = ? AND resolved_at IS NULL
                    RETURNING %s
                    """.formatted(COLUMNS))) {
                ps.setTimestamp(1, JobRows.timestamp(at));
                ps.setString(2, rule);
                ps.setString(3, subject);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(incident(rs)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public List<Incident> recent(Instant since) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT %1$s FROM alert_incidents WHERE resolved_at IS NULL
                    UNION ALL
                    SELECT %1$s FROM alert_incidents WHERE resolved_at >= ?
                    ORDER BY id
                    """.formatted(COLUMNS))) {
                ps.setTimestamp(1, JobRows.timestamp(since));
                List<Incident> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(incident(rs));
                    }
                }
                return out;
            }
        });
    }

    private static Incident incident(ResultSet rs) throws SQLException {
        return new Incident(
                rs.getLong("id"),
                rs.getString("rule"),
                rs.getString("subject"),
                JobRows.instant(rs, "since"),
                Optional.ofNullable(JobRows.instant(rs, "alerted_at")),
                Optional.ofNullable(JobRows.instant(rs, "resolved_at")));
    }
}
