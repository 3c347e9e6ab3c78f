package io.idem.postgres;

import io.idem.core.spi.WebhookSubscriptions;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Webhook subscriptions and their delivery log, one statement per method. The sealed secret is
 * written here and read only by {@link PgOutbox}'s claims. Thread-safe.
 */
public final class PgWebhookSubscriptions implements WebhookSubscriptions {
    private static final String COLUMNS = "id, owner, scope, created_by, url, event_types, description, created_at";
    private static final String DELIVERY_COLUMNS = """
            id, event_id, event_type, status, attempts, last_status, last_error, last_attempt_at,
            CASE WHEN status = 'pending' THEN next_attempt_at END AS next_attempt_at, give_up_at, created_at,
            finished_at
            """;

    private final Database db;

    public PgWebhookSubscriptions(Database db) {
        this.db = db;
    }

    @Override
    public void create(Subscription s, byte[] sealedSecret) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO webhook_subscriptions (id, owner, scope, created_by, url, event_types, description,
                                                       secret_sealed, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)) {
                ps.setObject(1, s.id());
                ps.setString(2, s.owner());
                ps.setString(3, s.allOwners() ? "all" : "owner");
                ps.setObject(4, s.createdBy());
                ps.setString(5, s.url());
                ps.setArray(6, c.createArrayOf("text", s.eventTypes().toArray()));
                ps.setString(7, s.description().orElse(null));
                ps.setBytes(8, sealedSecret);
                ps.setTimestamp(9, JobRows.timestamp(s.createdAt()));
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public List<Subscription> list(String ownerScope) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + """
                     FROM webhook_subscriptions WHERE (?::text IS NULL OR (owner = ? AND scope = 'owner')) ORDER BY created_at, id
                    """)) {
                ps.setString(1, ownerScope);
                ps.setString(2, ownerScope);
                return subscriptions(ps);
            }
        });
    }

    @Override
    public Optional<Subscription> find(UUID id, String ownerScope) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + """
                     FROM webhook_subscriptions WHERE id = ? AND (?::text IS NULL OR (owner = ? AND scope = 'owner'))
                    """)) {
                ps.setObject(1, id);
                ps.setString(2, ownerScope);
                ps.setString(3, ownerScope);
                return subscriptions(ps).stream().findFirst();
            }
        });
    }

    @Override
    public boolean delete(UUID id, String ownerScope) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "DELETE FROM webhook_subscriptions WHERE id = ? AND (?::text IS NULL OR (owner = ? AND scope = 'owner'))")) {
                ps.setObject(1, id);
                ps.setString(2, ownerScope);
                ps.setString(3, ownerScope);
                return UnexpectedRowCountException.oneRow(ps.executeUpdate(), "delete webhook subscription", id);
            }
        });
    }

    @Override
    public int count(String owner) {
        return db.withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT count(*) FROM webhook_subscriptions WHERE owner = ?")) {
                ps.setString(1, owner);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    @Override
    public Page deliveries(UUID subscriptionId, Optional<Cursor> after, int limit) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + DELIVERY_COLUMNS + """
                     FROM outbox_deliveries
                    WHERE subscription_id = ?
                      AND (?::timestamptz IS NULL OR (created_at, id) < (?::timestamptz, ?::uuid))
                    ORDER BY created_at DESC, id DESC
                    LIMIT ?
                    """)) {
                var createdAt = after.map(a -> JobRows.timestamp(a.createdAt())).orElse(null);
                ps.setObject(1, subscriptionId);
                ps.setTimestamp(2, createdAt);
                ps.setTimestamp(3, createdAt);
                ps.setObject(4, after.map(Cursor::id).orElse(null));
                ps.setInt(5, limit + 1);
                List<DeliveryRecord> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(delivery(rs));
                    }
                }
                if (rows.size() <= limit) {
                    return new Page(rows, Optional.empty());
                }
                DeliveryRecord last = rows.get(limit - 1);
                return new Page(rows.subList(0, limit), Optional.of(new Cursor(last.createdAt(), last.id())));
            }
        });
    }

    private static List<Subscription> subscriptions(PreparedStatement ps) throws SQLException {
        List<Subscription> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(new Subscription(
                        rs.getObject("id", UUID.class),
                        rs.getString("owner"),
                        rs.getString("scope").equals("all"),
                        rs.getObject("created_by", UUID.class),
                        rs.getString("url"),
                        Arrays.asList((String[]) rs.getArray("event_types").getArray()),
                        Optional.ofNullable(rs.getString("description")),
                        JobRows.instant(rs, "created_at")));
            }
        }
        return out;
    }

    private static DeliveryRecord delivery(ResultSet rs) throws SQLException {
        int lastStatus = rs.getInt("last_status");
        Optional<Integer> status = rs.wasNull() ? Optional.empty() : Optional.of(lastStatus);
        return new DeliveryRecord(
                rs.getObject("id", UUID.class),
                rs.getLong("event_id"),
                rs.getString("event_type"),
                rs.getString("status"),
                new Attempts(
                        rs.getInt("attempts"),
                        status,
                        Optional.ofNullable(rs.getString("last_error")),
                        Optional.ofNullable(JobRows.instant(rs, "last_attempt_at")),
                        Optional.ofNullable(JobRows.instant(rs, "next_attempt_at")),
                        JobRows.instant(rs, "give_up_at")),
                JobRows.instant(rs, "created_at"),
                Optional.ofNullable(JobRows.instant(rs, "finished_at")));
    }
}
