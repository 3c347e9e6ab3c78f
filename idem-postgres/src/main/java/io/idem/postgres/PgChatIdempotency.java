package io.idem.postgres;

import io.idem.core.spi.ChatIdempotencyStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;

/**
 * Idempotency keys for chat calls (a client's, or a keyless request's implicit one): the first
 * request claims the key while it runs, stores its finished answer, and every later request with
 * the same key and body gets that answer. A running call's claim lapses at {@code locked_until}
 * (its node may have died); {@code holder} fences finish and release to the claim that made them.
 * Thread-safe.
 */
public final class PgChatIdempotency implements ChatIdempotencyStore {
    private final Database db;

    public PgChatIdempotency(Database db) {
        this.db = db;
    }

    /**
     * Inserts the key, or takes over a lapsed claim, an expired key or one claimed before the
     * ticket's {@code countsFrom}, in one statement; otherwise reads what holds it.
     */
    @Override
    public Claim claim(Ticket ticket) {
        boolean claimed = db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO chat_idempotency (digest, owner, request_hash, state, locked_until, created_at, expires_at,
                                                  holder, request_id)
                    VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?)
                    ON CONFLICT (digest) DO UPDATE
                       SET request_hash = EXCLUDED.request_hash, state = 'running', locked_until = EXCLUDED.locked_until,
                           response = NULL, served_model = NULL, attempts = NULL, status = 200,
                           created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
                           holder = EXCLUDED.holder, request_id = EXCLUDED.request_id
                     WHERE chat_idempotency.expires_at <= EXCLUDED.created_at
                        OR (chat_idempotency.state = 'running' AND chat_idempotency.locked_until <= EXCLUDED.created_at
                            AND chat_idempotency.request_hash = EXCLUDED.request_hash)
                        OR chat_idempotency.created_at < ?
                    """)) {
                ps.setBytes(1, ticket.digest());
                ps.setString(2, ticket.owner());
                ps.setBytes(3, ticket.requestHash());
                ps.setTimestamp(4, JobRows.timestamp(ticket.lockedUntil()));
                ps.setTimestamp(5, JobRows.timestamp(ticket.now()));
                ps.setTimestamp(6, JobRows.timestamp(ticket.expiresAt()));
                ps.setObject(7, ticket.holder());
                ps.setString(8, ticket.requestId());
                ps.setTimestamp(9, JobRows.timestamp(ticket.countsFrom()));
                return ps.executeUpdate() == 1;
            }
        });
        return claimed ? new Claim.Claimed() : holding(ticket);
    }

    private Claim holding(Ticket ticket) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT request_hash, state, locked_until, response, served_model, attempts, status, request_id
                      FROM chat_idempotency WHERE digest = ?
                    """)) {
                ps.setBytes(1, ticket.digest());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        // Released between the two statements: it is free, but let the caller retry.
                        return new Claim.InUse(ticket.now());
                    }
                    if (!Arrays.equals(rs.getBytes("request_hash"), ticket.requestHash())) {
                        return new Claim.Reused();
                    }
                    if (rs.getString("state").equals("done")) {
                        return new Claim.Finished(
                                new Answer(
                                        rs.getInt("status"),
                                        rs.getString("response"),
                                        rs.getString("served_model"),
                                        rs.getString("attempts")),
                                Optional.ofNullable(rs.getString("request_id")));
                    }
                    return new Claim.InUse(JobRows.instant(rs, "locked_until"));
                }
            }
        });
    }

    @Override
    public void finish(byte[] digest, UUID holder, Answer answer) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE chat_idempotency SET state = 'done', response = ?, served_model = ?, attempts = ?, status = ?
                     WHERE digest = ? AND state = 'running' AND holder = ?
                    """)) {
                ps.setString(1, answer.response());
                ps.setString(2, answer.servedModel());
                ps.setString(3, answer.attempts());
                ps.setInt(4, answer.status());
                ps.setBytes(5, digest);
                ps.setObject(6, holder);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public void release(byte[] digest, UUID holder) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "DELETE FROM chat_idempotency WHERE digest = ? AND state = 'running' AND holder = ?")) {
                ps.setBytes(1, digest);
                ps.setObject(2, holder);
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
