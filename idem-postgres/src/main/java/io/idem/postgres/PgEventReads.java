package io.idem.postgres;

import io.idem.core.spi.EventReads;
import io.idem.core.spi.StoredChatAttempt;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** The event stream and the chat attempts on PostgreSQL: one statement per read. Thread-safe. */
public final class PgEventReads implements EventReads {
    private final Database db;

    public PgEventReads(Database db) {
        this.db = db;
    }

    @Override
    public Page events(Filter filter, Cursor after, int limit) {
        SqlQuery query = EventBranches.query(filter, after, limit + 1);
        if (query == null) {
            return new Page(List.of(), Optional.empty());
        }
        List<Event> events = db.withConnection(c -> {
            List<Event> found = new ArrayList<>();
            try (PreparedStatement ps = query.prepare(c);
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(EventBranches.event(rs));
                }
            }
            return found;
        });
        if (events.size() <= limit) {
            return new Page(events, Optional.empty());
        }
        List<Event> page = events.subList(0, limit);
        return new Page(page, Optional.of(page.getLast().cursor()));
    }

    @Override
    public AttemptPage chatAttempts(AttemptFilter filter, AttemptCursor after, int limit) {
        SqlQuery q = new SqlQuery().sql("""
                SELECT id, call_id, seq, api_key_id, owner, lane, requested_model, model, provider, vendor_model,
                       stream, outcome, error_code, error_message, reason, http_status, provider_request_id,
                       latency_ms, first_token_ms, prompt_tokens, completion_tokens, usage_estimated, billable,
                       cost_usd, started_at, finished_at
                  FROM chat_attempts WHERE true""");
        if (filter.owner() != null) {
            q.sql(" AND owner = ?", filter.owner());
        }
        filter.provider().ifPresent(p -> q.sql(" AND provider = ?", p));
        filter.model().ifPresent(m -> q.sql(" AND model = ?", m));
        filter.callId().ifPresent(id -> q.sql(" AND call_id = ?", id));
        filter.window().since().ifPresent(since -> q.sql(" AND finished_at >= ?", since));
        filter.window().until().ifPresent(until -> q.sql(" AND finished_at < ?", until));
        if (after != null) {
            q.sql(" AND (finished_at, id) < (?, ?)", after.finishedAt(), after.id());
        }
        q.sql(" ORDER BY finished_at DESC, id DESC LIMIT ?", limit + 1);
        List<StoredChatAttempt> attempts = db.withConnection(c -> {
            List<StoredChatAttempt> found = new ArrayList<>();
            try (PreparedStatement ps = q.prepare(c);
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(attempt(rs));
                }
            }
            return found;
        });
        if (attempts.size() <= limit) {
            return new AttemptPage(attempts, Optional.empty());
        }
        List<StoredChatAttempt> page = attempts.subList(0, limit);
        StoredChatAttempt last = page.getLast();
        return new AttemptPage(page, Optional.of(new AttemptCursor(last.timing().finishedAt(), last.id())));
    }

    @Override
    public Map<String, Map<String, Instant>> lastProviderEvents(Set<String> providers, Set<String> types) {
        return db.withConnection(c -> {
            Map<String, Map<String, Instant>> last = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT p.provider, t.type,
                           (SELECT max(e.at) FROM provider_events e WHERE e.provider = p.provider AND e.type = t.type)
                             AS at
                      FROM unnest(?::text[]) AS p (provider) CROSS JOIN unnest(?::text[]) AS t (type)
                    """)) {
                ps.setArray(1, c.createArrayOf("text", providers.toArray()));
                ps.setArray(2, c.createArrayOf("text", types.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Instant at = JobRows.instant(rs, "at");
                        if (at != null) {
                            last.computeIfAbsent(rs.getString("provider"), k -> new HashMap<>())
                                    .put(rs.getString("type"), at);
                        }
                    }
                }
            }
            return last;
        });
    }

    private static StoredChatAttempt attempt(ResultSet rs) throws SQLException {
        long firstToken = rs.getLong("first_token_ms");
        Optional<Long> firstTokenMs = rs.wasNull() ? Optional.empty() : Optional.of(firstToken);
        return new StoredChatAttempt(
                rs.getLong("id"),
                rs.getObject("call_id", UUID.class),
                rs.getInt("seq"),
                rs.getString("owner"),
                Optional.ofNullable(rs.getObject("api_key_id", UUID.class)),
                new StoredChatAttempt.Route(
                        rs.getString("lane"),
                        rs.getString("requested_model"),
                        rs.getString("model"),
                        rs.getString("provider"),
                        rs.getString("vendor_model"),
                        rs.getBoolean("stream")),
                new StoredChatAttempt.Answer(
                        rs.getString("outcome"),
                        Optional.ofNullable(rs.getString("error_code")),
                        Optional.ofNullable(rs.getString("error_message")),
                        Optional.ofNullable(rs.getString("reason")),
                        rs.getInt("http_status"),
                        Optional.ofNullable(rs.getString("provider_request_id"))),
                new StoredChatAttempt.Bill(
                        rs.getLong("prompt_tokens"),
                        rs.getLong("completion_tokens"),
                        rs.getBoolean("usage_estimated"),
                        rs.getString("billable"),
                        rs.getBigDecimal("cost_usd")),
                new StoredChatAttempt.Timing(
                        rs.getLong("latency_ms"),
                        firstTokenMs,
                        JobRows.instant(rs, "started_at"),
                        JobRows.instant(rs, "finished_at")));
    }
}
