package io.idem.postgres;

import io.idem.core.chat.ChatAttempt;
import io.idem.core.chat.ChatAuditWriter;
import io.idem.core.chat.FailoverEvent;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The chat audit on PostgreSQL: attempts and failover events are group-committed ({@link
 * GroupCommit}), many per transaction, one batched statement per table. Thread-safe.
 */
public final class PgChatAudit implements ChatAuditWriter {
    private final Database db;
    private final GroupCommit<Row> batches;

    /** One queued audit record. */
    private sealed interface Row {
        record Attempt(ChatAttempt attempt) implements Row {}

        record Failover(FailoverEvent event) implements Row {}
    }

    /** Starts the audit's writer thread; {@link #close()} commits what it holds and stops it. */
    public PgChatAudit(Database db) {
        this.db = db;
        this.batches = new GroupCommit<>("chat audit", GroupCommit.Settings.DEFAULTS, this::write);
    }

    @Override
    public void attempt(ChatAttempt attempt) {
        batches.add(new Row.Attempt(attempt));
    }

    @Override
    public void failover(FailoverEvent event) {
        batches.add(new Row.Failover(event));
    }

    @Override
    public boolean awaitWritten(Duration max) throws InterruptedException {
        return batches.awaitWritten(max);
    }

    @Override
    public void close() {
        batches.close();
    }

    private void write(List<Row> batch) {
        List<ChatAttempt> attempts = new ArrayList<>();
        List<FailoverEvent> events = new ArrayList<>();
        for (Row row : batch) {
            switch (row) {
                case Row.Attempt a -> attempts.add(a.attempt());
                case Row.Failover f -> events.add(f.event());
            }
        }
        write(attempts, events);
    }

    /** Writes everything given in one transaction: all of it lands, or none of it. */
    private void write(List<ChatAttempt> attempts, List<FailoverEvent> events) {
        if (attempts.isEmpty() && events.isEmpty()) {
            return;
        }
        db.inTransaction(c -> {
            if (!attempts.isEmpty()) {
                try (PreparedStatement ps = c.prepareStatement("""
                        INSERT INTO chat_attempts (call_id, seq, api_key_id, owner, lane, requested_model, model,
                            provider, vendor_model, stream, outcome, error_code, error_message, reason, http_status,
                            provider_request_id, latency_ms, first_token_ms, prompt_tokens, completion_tokens,
                            usage_estimated, billable, cost_usd, started_at, finished_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """)) {
                    for (ChatAttempt a : attempts) {
                        bindAttempt(ps, a);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
            if (!events.isEmpty()) {
                try (PreparedStatement ps = c.prepareStatement("""
                        INSERT INTO audit_events (type, actor, subject, detail, at)
                        VALUES (?, ?, ?, jsonb_build_object(
                            'call_id', ?::text, 'seq', ?::int, 'from_model', ?::text, 'from_provider', ?::text,
                            'to_model', ?::text, 'reason', ?::text, 'outcome', ?::text, 'error_code', ?::text,
                            'http_status', ?::int, 'lane', ?::text, 'requested_model', ?::text), ?)
                        """)) {
                    for (FailoverEvent e : events) {
                        bindEvent(ps, e);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
            return null;
        });
    }

    private static void bindAttempt(PreparedStatement ps, ChatAttempt a) throws java.sql.SQLException {
        var r = a.result();
        int i = 1;
        ps.setObject(i++, a.caller().callId());
        ps.setInt(i++, a.seq());
        ps.setObject(i++, a.caller().apiKeyId().orElse(null));
        ps.setString(i++, a.caller().owner());
        ps.setString(i++, a.caller().lane());
        ps.setString(i++, a.requestedModel());
        ps.setString(i++, a.model().name());
        ps.setString(i++, a.model().provider());
        ps.setString(i++, a.model().vendorModel());
        ps.setBoolean(i++, a.stream());
        ps.setString(i++, r.outcome());
        ps.setString(i++, r.errorCode().orElse(null));
        ps.setString(i++, r.message().map(PgChatAudit::clip).orElse(null));
        ps.setString(i++, r.reason().map(t -> t.wire()).orElse(null));
        ps.setInt(i++, r.httpStatus());
        ps.setString(i++, r.providerRequestId().orElse(null));
        ps.setLong(i++, a.latency().toMillis());
        if (a.firstToken().isPresent()) {
            ps.setLong(i++, a.firstToken().get().toMillis());
        } else {
            ps.setNull(i++, Types.BIGINT);
        }
        ps.setLong(i++, r.usage().promptTokens());
        ps.setLong(i++, r.usage().completionTokens());
        ps.setBoolean(i++, r.usage().estimated());
        ps.setString(i++, r.billable().wire());
        ps.setBigDecimal(i++, r.costUsd());
        ps.setTimestamp(i++, JobRows.timestamp(a.startedAt()));
        ps.setTimestamp(i, JobRows.timestamp(a.finishedAt()));
    }

    private static void bindEvent(PreparedStatement ps, FailoverEvent e) throws java.sql.SQLException {
        ChatAttempt from = e.from();
        int i = 1;
        ps.setString(i++, FailoverEvent.TYPE);
        ps.setString(i++, from.caller().actor());
        ps.setString(i++, from.caller().callId().toString());
        ps.setString(i++, from.caller().callId().toString());
        ps.setInt(i++, from.seq());
        ps.setString(i++, from.model().name());
        ps.setString(i++, from.model().provider());
        ps.setString(i++, e.toModel());
        ps.setString(i++, e.reason());
        ps.setString(i++, from.result().outcome());
        ps.setString(i++, from.result().errorCode().orElse(null));
        ps.setInt(i++, from.result().httpStatus());
        ps.setString(i++, from.caller().lane());
        ps.setString(i++, from.requestedModel());
        ps.setTimestamp(i, JobRows.timestamp(e.at()));
    }

    private static String clip(String text) {
        return text.length() <= 500 ? text : text.substring(0, 500);
    }
}
