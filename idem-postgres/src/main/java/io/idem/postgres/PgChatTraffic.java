package io.idem.postgres;

import io.idem.core.spi.ChatTraffic;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code chat_prompt_days}: one upsert per served answer (batched into one transaction per {@link
 * #record}), counted per prompt and day, the newest answer kept. Thread-safe.
 */
public final class PgChatTraffic implements ChatTraffic {
    private final Database db;

    public PgChatTraffic(Database db) {
        this.db = db;
    }

    @Override
    public void record(List<Served> served) {
        if (served.isEmpty()) {
            return;
        }
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO chat_prompt_days (prompt_key, day, calls, prompt, answer, answer_model, answered_at)
                    VALUES (?, ?, 1, ?, ?, ?, ?)
                    ON CONFLICT (prompt_key, day) DO UPDATE SET
                        calls = chat_prompt_days.calls + 1,
                        prompt = CASE WHEN excluded.answered_at >= chat_prompt_days.answered_at
                                      THEN excluded.prompt ELSE chat_prompt_days.prompt END,
                        answer = CASE WHEN excluded.answered_at >= chat_prompt_days.answered_at
                                      THEN excluded.answer ELSE chat_prompt_days.answer END,
                        answer_model = CASE WHEN excluded.answered_at >= chat_prompt_days.answered_at
                                      THEN excluded.answer_model ELSE chat_prompt_days.answer_model END,
                        answered_at = greatest(excluded.answered_at, chat_prompt_days.answered_at)
                    """)) {
                for (Served s : served) {
                    ps.setString(1, s.promptKey());
                    ps.setDate(2, Date.valueOf(LocalDate.ofInstant(s.at(), ZoneOffset.UTC)));
                    ps.setString(3, s.prompt());
                    ps.setString(4, s.answer());
                    ps.setString(5, s.model());
                    ps.setTimestamp(6, Timestamp.from(s.at()));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        });
    }

    @Override
    public List<Frequent> top(int top, LocalDate from, LocalDate to) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    WITH totals AS (
                        SELECT prompt_key, sum(calls) AS total FROM chat_prompt_days
                         WHERE day BETWEEN ? AND ?
                         GROUP BY prompt_key ORDER BY total DESC, prompt_key LIMIT ?)
                    SELECT latest.prompt, latest.answer, latest.answer_model, t.total
                      FROM totals t
                      CROSS JOIN LATERAL (
                        SELECT prompt, answer, answer_model FROM chat_prompt_days d
                         WHERE d.prompt_key = t.prompt_key AND d.day BETWEEN ? AND ?
                         ORDER BY answered_at DESC LIMIT 1) latest
                     ORDER BY t.total DESC, t.prompt_key
                    """)) {
                ps.setDate(1, Date.valueOf(from));
                ps.setDate(2, Date.valueOf(to));
                ps.setInt(3, top);
                ps.setDate(4, Date.valueOf(from));
                ps.setDate(5, Date.valueOf(to));
                List<Frequent> frequent = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        frequent.add(new Frequent(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4)));
                    }
                }
                return List.copyOf(frequent);
            }
        });
    }

    @Override
    public long calls(LocalDate from, LocalDate to) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT coalesce(sum(calls), 0) FROM chat_prompt_days WHERE day BETWEEN ? AND ?")) {
                ps.setDate(1, Date.valueOf(from));
                ps.setDate(2, Date.valueOf(to));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    @Override
    public int purgeBefore(LocalDate before) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM chat_prompt_days WHERE day < ?")) {
                ps.setDate(1, Date.valueOf(before));
                return ps.executeUpdate();
            }
        });
    }
}
