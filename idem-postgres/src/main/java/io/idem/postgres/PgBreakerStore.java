package io.idem.postgres;

import io.idem.core.breaker.BreakerSnapshot;
import io.idem.core.breaker.BreakerState;
import io.idem.core.breaker.BreakerStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Breakers in {@code provider_breakers}, with the vendor's rate limit ({@code rate_limited_until})
 * beside the state. Each move is one compare-and-set UPDATE (or an upsert for the first open), writes its {@code provider_events} row and NOTIFYs {@code idem_breakers} with
 * the provider's name in the same transaction, so other nodes hear of it at commit.
 */
public final class PgBreakerStore implements BreakerStore {
    public static final String CHANNEL = "idem_breakers";
    private final Database db;

    public PgBreakerStore(Database db) {
        this.db = db;
    }

    private static final String COLUMNS =
            "provider, state, reopens, open_until, probe_until, version, rate_limited_until";

    @Override
    public Map<String, BreakerSnapshot> loadAll() {
        return db.withConnection(c -> {
            Map<String, BreakerSnapshot> all = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM provider_breakers");
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    BreakerSnapshot s = map(rs);
                    all.put(s.provider(), s);
                }
            }
            return all;
        });
    }

    @Override
    public Optional<BreakerSnapshot> load(String provider) {
        return db.withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("SELECT " + COLUMNS + " FROM provider_breakers WHERE provider = ?")) {
                ps.setString(1, provider);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(map(rs)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public Optional<BreakerSnapshot> open(String provider, Instant until, String reason, String node, Instant now) {
        BreakerState.CLOSED.check(BreakerState.OPEN);
        return move(provider, BreakerState.CLOSED, BreakerState.OPEN, reason, node, now, """
                INSERT INTO provider_breakers AS b (provider, state, reopens, open_until, version, updated_at)
                VALUES (?, 'open', 0, ?, 1, ?)
                ON CONFLICT (provider) DO UPDATE
                   SET state = 'open', reopens = 0, open_until = EXCLUDED.open_until, probe_owner = NULL,
                       probe_until = NULL, version = b.version + 1, updated_at = EXCLUDED.updated_at
                 WHERE b.state = 'closed'
                RETURNING %s
                """.formatted(COLUMNS), ps -> {
            ps.setString(1, provider);
            ps.setTimestamp(2, JobRows.timestamp(until));
            ps.setTimestamp(3, JobRows.timestamp(now));
        });
    }

    @Override
    public Optional<BreakerSnapshot> takeProbe(String provider, Instant probeUntil, String node, Instant now) {
        BreakerState.OPEN.check(BreakerState.HALF_OPEN);
        return move(
                provider,
                BreakerState.OPEN,
                BreakerState.HALF_OPEN,
                "cooldown over; one probe",
                node,
                now,
                """
                UPDATE provider_breakers
                   SET state = 'half_open', probe_owner = ?, probe_until = ?, version = version + 1, updated_at = ?
                 WHERE provider = ?
                   AND ((state = 'open' AND open_until <= ?) OR (state = 'half_open' AND probe_until <= ?))
                RETURNING %s
                """.formatted(COLUMNS),
                ps -> {
                    ps.setString(1, node);
                    ps.setTimestamp(2, JobRows.timestamp(probeUntil));
                    ps.setTimestamp(3, JobRows.timestamp(now));
                    ps.setString(4, provider);
                    ps.setTimestamp(5, JobRows.timestamp(now));
                    ps.setTimestamp(6, JobRows.timestamp(now));
                });
    }

    @Override
    public Optional<BreakerSnapshot> close(String provider, String node, Instant now) {
        BreakerState.HALF_OPEN.check(BreakerState.CLOSED);
        return move(
                provider,
                BreakerState.HALF_OPEN,
                BreakerState.CLOSED,
                "probe succeeded",
                node,
                now,
                """
                UPDATE provider_breakers
                   SET state = 'closed', reopens = 0, open_until = NULL, probe_owner = NULL, probe_until = NULL,
                       version = version + 1, updated_at = ?
                 WHERE provider = ? AND state = 'half_open' AND probe_owner = ?
                RETURNING %s
                """.formatted(COLUMNS),
                ps -> {
                    ps.setTimestamp(1, JobRows.timestamp(now));
                    ps.setString(2, provider);
                    ps.setString(3, node);
                });
    }

    @Override
    public Optional<BreakerSnapshot> reopen(String provider, Instant until, String reason, String node, Instant now) {
        BreakerState.HALF_OPEN.check(BreakerState.OPEN);
        return move(
                provider, BreakerState.HALF_OPEN, BreakerState.OPEN, reason, node, now, """
                UPDATE provider_breakers
                   SET state = 'open', reopens = reopens + 1, open_until = ?, probe_owner = NULL, probe_until = NULL,
                       version = version + 1, updated_at = ?
                 WHERE provider = ? AND state = 'half_open' AND probe_owner = ?
                RETURNING %s
                """.formatted(COLUMNS), ps -> {
                    ps.setTimestamp(1, JobRows.timestamp(until));
                    ps.setTimestamp(2, JobRows.timestamp(now));
                    ps.setString(3, provider);
                    ps.setString(4, node);
                });
    }

    private static final String RATE_LIMIT = """
            INSERT INTO provider_breakers AS b (provider, state, reopens, rate_limited_until, version, updated_at)
            VALUES (?, 'closed', 0, ?, 1, ?)
            ON CONFLICT (provider) DO UPDATE
               SET rate_limited_until = EXCLUDED.rate_limited_until, version = b.version + 1,
                   updated_at = EXCLUDED.updated_at
             WHERE b.rate_limited_until IS NULL OR b.rate_limited_until < EXCLUDED.rate_limited_until
            RETURNING %s
            """.formatted(COLUMNS);

    /** Lengthens the rate limit only (never shortens it), in any state; a {@code provider.rate_limited} event. */
    @Override
    public Optional<BreakerSnapshot> rateLimit(String provider, Instant until, String node, Instant now) {
        return db.inTransaction(c -> {
            BreakerSnapshot limited;
            try (PreparedStatement ps = c.prepareStatement(RATE_LIMIT)) {
                ps.setString(1, provider);
                ps.setTimestamp(2, JobRows.timestamp(until));
                ps.setTimestamp(3, JobRows.timestamp(now));
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    limited = map(rs);
                }
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO provider_events (provider, type, detail, at)
                    VALUES (?, 'provider.rate_limited', jsonb_build_object('until', ?::text, 'node', ?::text), ?)
                    """)) {
                ps.setString(1, provider);
                ps.setString(2, until.toString());
                ps.setString(3, node);
                ps.setTimestamp(4, JobRows.timestamp(now));
                ps.executeUpdate();
            }
            notifyNodes(c, provider);
            return Optional.of(limited);
        });
    }

    private static final String UNUSABLE = """
            INSERT INTO provider_breakers AS b (provider, state, reopens, open_until, version, updated_at)
            VALUES (?, 'open', 0, ?, 1, ?)
            ON CONFLICT (provider) DO UPDATE
               SET state = 'open', open_until = EXCLUDED.open_until, probe_owner = NULL, probe_until = NULL,
                   version = b.version + 1, updated_at = EXCLUDED.updated_at
            RETURNING %s
            """.formatted(COLUMNS);

    /**
     * Opens from any state under the row's lock (an open breaker's cooldown only lengthens); a
     * {@code breaker.open} event when the state moved, and always a {@code provider.unusable} one.
     */
    @Override
    public Optional<BreakerSnapshot> unusable(String provider, Instant until, String reason, String node, Instant now) {
        return db.inTransaction(c -> {
            Optional<BreakerSnapshot> before = locked(c, provider);
            BreakerState from = before.map(BreakerSnapshot::state).orElse(BreakerState.CLOSED);
            boolean longEnough = from == BreakerState.OPEN
                    && before.flatMap(BreakerSnapshot::openUntil)
                            .filter(known -> !known.isBefore(until))
                            .isPresent();
            if (longEnough) {
                return Optional.empty();
            }
            BreakerSnapshot closedOff;
            try (PreparedStatement ps = c.prepareStatement(UNUSABLE)) {
                ps.setString(1, provider);
                ps.setTimestamp(2, JobRows.timestamp(until));
                ps.setTimestamp(3, JobRows.timestamp(now));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    closedOff = map(rs);
                }
            }
            if (from != BreakerState.OPEN) {
                from.check(BreakerState.OPEN);
                event(c, provider, "breaker.open", from, BreakerState.OPEN, reason, node, now);
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO provider_events (provider, type, detail, at)
                    VALUES (?, 'provider.unusable',
                            jsonb_build_object('reason', ?::text, 'until', ?::text, 'node', ?::text), ?)
                    """)) {
                ps.setString(1, provider);
                ps.setString(2, reason);
                ps.setString(3, until.toString());
                ps.setString(4, node);
                ps.setTimestamp(5, JobRows.timestamp(now));
                ps.executeUpdate();
            }
            notifyNodes(c, provider);
            return Optional.of(closedOff);
        });
    }

    private static Optional<BreakerSnapshot> locked(Connection c, String provider) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT " + COLUMNS + " FROM provider_breakers WHERE provider = ? FOR UPDATE")) {
            ps.setString(1, provider);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(map(rs)) : Optional.empty();
            }
        }
    }

    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private Optional<BreakerSnapshot> move(
            String provider,
            BreakerState from,
            BreakerState to,
            String reason,
            String node,
            Instant now,
            String sql,
            Binder binder) {
        return db.inTransaction(c -> {
            BreakerSnapshot moved;
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                binder.bind(ps);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    moved = map(rs);
                }
            }
            event(c, provider, "breaker." + to.wire(), from, to, reason, node, now);
            notifyNodes(c, provider);
            return Optional.of(moved);
        });
    }

    /** Tells the other nodes at commit that this provider's row changed. */
    private static void notifyNodes(Connection c, String provider) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify(?, ?)")) {
            ps.setString(1, CHANNEL);
            ps.setString(2, provider);
            ps.executeQuery().close();
        }
    }

    private static void event(
            Connection c,
            String provider,
            String type,
            BreakerState from,
            BreakerState to,
            String reason,
            String node,
            Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO provider_events (provider, type, detail, at)
                VALUES (?, ?, jsonb_build_object('from', ?::text, 'to', ?::text, 'reason', ?::text, 'node', ?::text), ?)
                """)) {
            ps.setString(1, provider);
            ps.setString(2, type);
            ps.setString(3, from.wire());
            ps.setString(4, to.wire());
            ps.setString(5, reason);
            ps.setString(6, node);
            ps.setTimestamp(7, JobRows.timestamp(now));
            ps.executeUpdate();
        }
    }

    private static BreakerSnapshot map(ResultSet rs) throws SQLException {
        return new BreakerSnapshot(
                rs.getString("provider"),
                BreakerState.fromWire(rs.getString("state")),
                rs.getInt("reopens"),
                Optional.ofNullable(JobRows.instant(rs, "open_until")),
                Optional.ofNullable(JobRows.instant(rs, "probe_until")),
                rs.getLong("version"),
                Optional.ofNullable(JobRows.instant(rs, "rate_limited_until")));
    }
}
