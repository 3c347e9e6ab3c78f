package io.idem.postgres;

import io.idem.core.spi.Outbox;
import io.idem.core.webhook.Delivery;
import io.idem.core.webhook.EventType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The outbox and its deliveries, one statement per method. Events arrive by the triggers of
 * migration V31 in the transactions that write the event tables; fan-out takes them with {@code SKIP
 * LOCKED} and deletes them in the statement that writes their deliveries, so an event is fanned out
 * exactly once. A subscription gets the events that happened after it was created. The body every
 * attempt sends is fixed at fan-out. Thread-safe.
 */
public final class PgOutbox implements Outbox {
    private static final String FAN_OUT = """
            WITH claimed AS (
                DELETE FROM outbox WHERE id IN (SELECT id FROM outbox ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)
                RETURNING id, type, job_id, data, at
            ), events AS (
                SELECT c.id, c.type, c.at, j.owner, j.api_key_id, j.callback_url,
                       jsonb_build_object(
                           'id', 'evt_' || c.id, 'type', c.type,
                           'timestamp', to_char(c.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                           'data', c.data || CASE WHEN j.id IS NULL THEN '{}'::jsonb
                                                  ELSE jsonb_build_object('owner', j.owner, 'metadata', j.metadata)
                                             END)::text AS body
                  FROM claimed c LEFT JOIN jobs j ON j.id = c.job_id
            ), subscribed AS (
                INSERT INTO outbox_deliveries (id, event_id, event_type, subscription_id, url, body, status,
                                               next_attempt_at, created_at, give_up_at)
                SELECT gen_random_uuid(), e.id, e.type, s.id, s.url, e.body, 'pending', ?, ?, ?
                  FROM events e
                  JOIN webhook_subscriptions s
                    ON s.event_types && ARRAY[e.type, '*'] AND (s.scope = 'all' OR s.owner = e.owner)
                   AND s.created_at <= e.at
                  JOIN api_keys k ON k.id = s.created_by AND k.revoked_at IS NULL
            ), called AS (
                INSERT INTO outbox_deliveries (id, event_id, event_type, api_key_id, url, body, status,
                                               next_attempt_at, created_at, give_up_at)
                SELECT gen_random_uuid(), e.id, e.type, e.api_key_id, e.callback_url, e.body, 'pending', ?, ?, ?
                  FROM events e
                  JOIN api_keys k ON k.id = e.api_key_id AND k.revoked_at IS NULL
                 WHERE e.callback_url IS NOT NULL AND e.type = ANY (?)
            )
            SELECT count(*) FROM claimed
            """;

    private static final String CLAIM = """
            UPDATE outbox_deliveries d
               SET claim = gen_random_uuid(), claimed_by = ?, attempts = d.attempts + 1, last_attempt_at = ?,
                   next_attempt_at = ?
              FROM (SELECT id FROM outbox_deliveries
                     WHERE status = 'pending' AND next_attempt_at <= ?
                     ORDER BY next_attempt_at
                     LIMIT ? FOR UPDATE SKIP LOCKED) due
             WHERE d.id = due.id
            RETURNING d.id, d.event_id, d.event_type, d.url, d.body, d.attempts, d.give_up_at, d.claim,
                      d.subscription_id, d.api_key_id,
                      (SELECT s.secret_sealed FROM webhook_subscriptions s WHERE s.id = d.subscription_id) AS sealed
            """;

    private static final String DELIVERED = """
            UPDATE outbox_deliveries
               SET status = 'delivered', last_status = ?, last_error = NULL, finished_at = ?,
                   next_attempt_at = NULL, claim = NULL
             WHERE id = ? AND status <> 'delivered'
            """;

    private static final String FAILED = """
            UPDATE outbox_deliveries
               SET last_status = ?, last_error = ?, claim = NULL,
                   status = CASE WHEN ?::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
                   next_attempt_at = ?::timestamptz,
                   finished_at = CASE WHEN ?::timestamptz IS NULL THEN ?::timestamptz END
             WHERE id = ? AND claim = ? AND status = 'pending'
            """;

    private static final String[] CALLBACK_TYPES = Arrays.stream(EventType.values())
            .filter(EventType::endsAJob)
            .map(EventType::wire)
            .toArray(String[]::new);

    private final Database db;

    public PgOutbox(Database db) {
        this.db = db;
    }

    @Override
    public int fanOut(int limit, Instant now, Instant giveUpAt) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(FAN_OUT)) {
                var at = JobRows.timestamp(now);
                var until = JobRows.timestamp(giveUpAt);
                ps.setInt(1, limit);
                for (int from : new int[] {2, 5}) {
                    ps.setTimestamp(from, at);
                    ps.setTimestamp(from + 1, at);
                    ps.setTimestamp(from + 2, until);
                }
                ps.setArray(8, c.createArrayOf("text", CALLBACK_TYPES));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    @Override
    public List<Delivery> claim(String node, int limit, Instant now, Duration lease) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(CLAIM)) {
                ps.setString(1, node);
                ps.setTimestamp(2, JobRows.timestamp(now));
                ps.setTimestamp(3, JobRows.timestamp(now.plus(lease)));
                ps.setTimestamp(4, JobRows.timestamp(now));
                ps.setInt(5, limit);
                List<Delivery> claimed = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        claimed.add(delivery(rs));
                    }
                }
                return claimed;
            }
        });
    }

    private static Delivery delivery(ResultSet rs) throws SQLException {
        UUID subscription = rs.getObject("subscription_id", UUID.class);
        Delivery.Signer signer = subscription == null
                ? new Delivery.Signer.JobCallback(rs.getObject("api_key_id", UUID.class))
                : new Delivery.Signer.Subscription(subscription, rs.getBytes("sealed"));
        return new Delivery(
                rs.getObject("id", UUID.class),
                rs.getLong("event_id"),
                rs.getString("event_type"),
                rs.getString("url"),
                rs.getString("body"),
                signer,
                rs.getInt("attempts"),
                JobRows.instant(rs, "give_up_at"),
                rs.getObject("claim", UUID.class));
    }

    @Override
    public void delivered(Delivery delivery, int status, Instant at) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(DELIVERED)) {
                ps.setInt(1, status);
                ps.setTimestamp(2, JobRows.timestamp(at));
                ps.setObject(3, delivery.id());
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public void failed(Delivery delivery, int status, String error, Instant at, Optional<Instant> retryAt) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(FAILED)) {
                var next = retryAt.map(JobRows::timestamp).orElse(null);
                ps.setInt(1, status);
                ps.setString(2, error);
                ps.setTimestamp(3, next);
                ps.setTimestamp(4, next);
                ps.setTimestamp(5, next);
                ps.setTimestamp(6, JobRows.timestamp(at));
                ps.setObject(7, delivery.id());
                ps.setObject(8, delivery.claim());
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public int purge(Instant before, int limit) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    DELETE FROM outbox_deliveries WHERE id IN (
                        SELECT id FROM outbox_deliveries WHERE status <> 'pending' AND finished_at < ? LIMIT ?)
                    """)) {
                ps.setTimestamp(1, JobRows.timestamp(before));
                ps.setInt(2, limit);
                return ps.executeUpdate();
            }
        });
    }
}
