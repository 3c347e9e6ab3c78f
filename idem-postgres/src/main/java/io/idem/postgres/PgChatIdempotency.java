package io.idem.postgres;

import io.idem.core.spi.ChatIdempotencyStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;

/**
 * {@code Idempotency-Key} for chat calls: the first request claims the key while it runs, stores
 * its finished response, and every later request with the same key and body gets that response.
 * A running call's claim lapses at {@code locked_until} (its node may have died). Thread-safe.
 */
public final class PgChatIdempotency implements ChatIdempotencyStore {
    private final Database db;

    public PgChatIdempotency(Database db) {
        this.db = db;
    }

    /**
     * Inserts the key, or takes over a lapsed claim or an expired key, in one statement; otherwise
     * reads what holds it.
     */
    @Override
    public Claim claim(
            byte[] digest, String owner, byte[] requestHash, Instant now, Instant lockedUntil, Instant expiresAt) {
        boolean claimed = db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO chat_idempotency (digest, owner, request_hash, state, locked_until, created_at, expires_at)
                    VALUES (?, ?, ?, 'running', ?, ?, ?)
                    ON CONFLICT (digest) DO UPDATE
                       SET request_hash = EXCLUDED.request_hash, state = 'running', locked_until = EXCLUDED.locked_until,
                           response = NULL, served_model = NULL, attempts = NULL,
                           created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
                     WHERE chat_idempotency.expires_at <= EXCLUDED.created_at
                        OR (chat_idempotency.state = 'running' AND chat_idempotency.locked_until <= EXCLUDED.created_at
                            AND chat_idempotency.request_hash = EXCLUDED.request_hash)
                    """)) {
                ps.setBytes(1, digest);
                ps.setString(2, owner);
                ps.setBytes(3, requestHash);
                ps.setTimestamp(4, JobRows.timestamp(lockedUntil));
                ps.setTimestamp(5, JobRows.timestamp(now));
                ps.setTimestamp(6, JobRows.timestamp(expiresAt));
                return ps.executeUpdate() == 1;
            }
        });
        if (claimed) {
            return new Claim.Claimed();
        }
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT request_hash, state, locked_until, response, served_model, attempts
                      FROM chat_idempotency WHERE digest = ?
                    """)) {
                ps.setBytes(1, digest);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        // Released between the two statements: it is free, but let the caller retry.
                        return new Claim.InUse(now);
                    }
                    if (!Arrays.equals(rs.getBytes("request_hash"), requestHash)) {
                        return new Claim.Reused();
                    }
                    if (rs.getString("state").equals("done")) {
                        return new Claim.Finished(
                                rs.getString("response"), rs.getString("served_model"), rs.getString("attempts"));
                    }
                    return new Claim.InUse(JobRows.instant(rs, "locked_until"));
                }
            }
        });
    }

    @Override
    public void finish(byte[] digest, String response, String servedModel, String attempts) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE chat_idempotency SET state = 'done', response = ?, served_model = ?, attempts = ?
                     WHERE digest = ? AND state = 'running'
                    """)) {
                ps.setString(1, response);
                ps.setString(2, servedModel);
                ps.setString(3, attempts);
                ps.setBytes(4, digest);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public void release(byte[] digest) {
        db.withConnection(c -> {
            try (PreparedStatement ps =
                    c.prepareStatement("DELETE FROM chat_idempotency WHERE digest = ? AND state = 'running'")) {
                ps.setBytes(1, digest);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public int purgeExpired(Instant now, int limit) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    DELETE FROM chat_idempotency WHERE digest IN (
                        SELECT digest FROM chat_idempotency WHERE expires_at < ? LIMIT ?)
                    """)) {
                ps.setTimestamp(1, JobRows.timestamp(now));
                ps.setInt(2, limit);
                return ps.executeUpdate();
            }
        });
    }

    /** For tests and operators: whether the key is currently held or stored. */
    public Optional<String> state(byte[] digest) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT state FROM chat_idempotency WHERE digest = ?")) {
                ps.setBytes(1, digest);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
                }
            }
        });
    }
}
