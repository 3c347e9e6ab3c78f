package io.idem.postgres;

import io.idem.core.domain.ApiKey;
import io.idem.core.domain.Role;
import io.idem.core.spi.ApiKeys;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** API keys, stored as SHA-256 hashes of their secrets (the secrets are random, 192 bits). Thread-safe. */
public final class PgApiKeys implements ApiKeys {
    /** The advisory lock key that serialises first-start bootstrap across nodes ("idem-bootstrap"). */
    private static final long BOOTSTRAP_LOCK = 0x6964656d_626f6f74L;

    private final Database db;

    public PgApiKeys(Database db) {
        this.db = db;
    }

    @Override
    public ApiKey insert(UUID id, String prefix, byte[] secretHash, String owner, Role role, Instant now) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO api_keys (id, prefix, secret_hash, owner, role, created_at) VALUES (?, ?, ?, ?, ?, ?)
                    """)) {
                ps.setObject(1, id);
                ps.setString(2, prefix);
                ps.setBytes(3, secretHash);
                ps.setString(4, owner);
                ps.setString(5, role.wire());
                ps.setTimestamp(6, JobRows.timestamp(now));
                ps.executeUpdate();
                return new ApiKey(id, prefix, owner, role, now, Optional.empty());
            }
        });
    }

    @Override
    public Optional<ApiKey> findActive(byte[] secretHash) {
        return db.withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT * FROM api_keys WHERE secret_hash = ? AND revoked_at IS NULL")) {
                ps.setBytes(1, secretHash);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(map(rs)) : Optional.empty();
                }
            }
        });
    }

    /**
     * Inserts the first admin key unless a live admin key exists, as one decision across every node
     * sharing the database: a transaction-scoped advisory lock serialises the nodes that start
     * together on an empty database, and the check runs after the lock is held (a fresh snapshot),
     * so exactly one of them inserts. Returns the key when this call created it.
     */
    @Override
    public Optional<ApiKey> insertFirstAdmin(UUID id, String prefix, byte[] secretHash, Instant now) {
        return db.inTransaction(c -> {
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                lock.setLong(1, BOOTSTRAP_LOCK);
                lock.execute();
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO api_keys (id, prefix, secret_hash, owner, role, created_at)
                    SELECT ?, ?, ?, 'admin', 'admin', ?
                    WHERE NOT EXISTS (SELECT 1 FROM api_keys WHERE role = 'admin' AND revoked_at IS NULL)
                    ON CONFLICT (secret_hash) DO NOTHING
                    """)) {
                ps.setObject(1, id);
                ps.setString(2, prefix);
                ps.setBytes(3, secretHash);
                ps.setTimestamp(4, JobRows.timestamp(now));
                int inserted = ps.executeUpdate();
                return inserted == 1
                        ? Optional.of(new ApiKey(id, prefix, "admin", Role.ADMIN, now, Optional.empty()))
                        : Optional.<ApiKey>empty();
            }
        });
    }

    /**
     * Inserts an admin key with the given secret hash unless one with it exists (the configured
     * bootstrap key; nodes starting together with the same key insert it once, neither fails).
     */
    @Override
    public boolean insertAdminIfAbsent(UUID id, String prefix, byte[] secretHash, Instant now) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO api_keys (id, prefix, secret_hash, owner, role, created_at)
                    VALUES (?, ?, ?, 'admin', 'admin', ?)
                    ON CONFLICT (secret_hash) DO NOTHING
                    """)) {
                ps.setObject(1, id);
                ps.setString(2, prefix);
                ps.setBytes(3, secretHash);
                ps.setTimestamp(4, JobRows.timestamp(now));
                return ps.executeUpdate() == 1;
            }
        });
    }

    @Override
    public int countAdmins() {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                            "SELECT count(*) FROM api_keys WHERE role = 'admin' AND revoked_at IS NULL");
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }

    @Override
    public List<ApiKey> list() {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM api_keys ORDER BY created_at, id");
                    ResultSet rs = ps.executeQuery()) {
                List<ApiKey> keys = new ArrayList<>();
                while (rs.next()) {
                    keys.add(map(rs));
                }
                return keys;
            }
        });
    }

    @Override
    public boolean revoke(UUID id, Instant now) {
        return db.withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")) {
                ps.setTimestamp(1, JobRows.timestamp(now));
                ps.setObject(2, id);
                return ps.executeUpdate() == 1;
            }
        });
    }

    private static ApiKey map(ResultSet rs) throws SQLException {
        int dedupeSeconds = rs.getInt("dedupe_window_seconds");
        Optional<java.time.Duration> dedupeWindow =
                rs.wasNull() ? Optional.empty() : Optional.of(java.time.Duration.ofSeconds(dedupeSeconds));
        return new ApiKey(
                rs.getObject("id", UUID.class),
                rs.getString("prefix"),
                rs.getString("owner"),
                Role.fromWire(rs.getString("role")),
                JobRows.instant(rs, "created_at"),
                Optional.ofNullable(JobRows.instant(rs, "revoked_at")),
                new ApiKey.Settings(
                        rs.getBoolean("adult_approved"),
                        Optional.ofNullable(rs.getString("jurisdiction")),
                        Optional.ofNullable(rs.getBigDecimal("daily_budget_usd")),
                        Optional.ofNullable(rs.getBigDecimal("monthly_budget_usd")),
                        Optional.ofNullable(rs.getString("failover_defaults")),
                        dedupeWindow));
    }

    /** One statement; an absent attribute keeps its column through {@code CASE WHEN}. */
    @Override
    public Optional<ApiKey> update(UUID id, Attributes attributes) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE api_keys
                       SET adult_approved = COALESCE(?, adult_approved),
                           jurisdiction = CASE WHEN ? THEN ? ELSE jurisdiction END,
                           daily_budget_usd = CASE WHEN ? THEN ? ELSE daily_budget_usd END,
                           monthly_budget_usd = CASE WHEN ? THEN ? ELSE monthly_budget_usd END,
                           failover_defaults = CASE WHEN ? THEN ?::jsonb ELSE failover_defaults END,
                           dedupe_window_seconds = CASE WHEN ? THEN ? ELSE dedupe_window_seconds END
                     WHERE id = ? AND revoked_at IS NULL
                    RETURNING *
                    """)) {
                ps.setObject(1, attributes.adultApproved());
                ps.setBoolean(2, attributes.jurisdiction() != null);
                ps.setString(
                        3,
                        attributes.jurisdiction() == null
                                ? null
                                : attributes.jurisdiction().orElse(null));
                ps.setBoolean(4, attributes.dailyBudgetUsd() != null);
                ps.setBigDecimal(
                        5,
                        attributes.dailyBudgetUsd() == null
                                ? null
                                : attributes.dailyBudgetUsd().orElse(null));
                ps.setBoolean(6, attributes.monthlyBudgetUsd() != null);
                ps.setBigDecimal(
                        7,
                        attributes.monthlyBudgetUsd() == null
                                ? null
                                : attributes.monthlyBudgetUsd().orElse(null));
                ps.setBoolean(8, attributes.failoverDefaults() != null);
                ps.setString(
                        9,
                        attributes.failoverDefaults() == null
                                ? null
                                : attributes.failoverDefaults().orElse(null));
                ps.setBoolean(10, attributes.dedupeWindow() != null);
                ps.setObject(
                        11,
                        attributes.dedupeWindow() == null
                                ? null
                                : attributes
                                        .dedupeWindow()
                                        .map(w -> (int) w.toSeconds())
                                        .orElse(null),
                        java.sql.Types.INTEGER);
                ps.setObject(12, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(map(rs)) : Optional.empty();
                }
            }
        });
    }
}
