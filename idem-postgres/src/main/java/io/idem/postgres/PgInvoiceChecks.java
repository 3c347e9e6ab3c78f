package io.idem.postgres;

import io.idem.core.invoice.InvoiceCheck;
import io.idem.core.spi.InvoiceChecks;
import io.idem.core.spi.UsageAnswer;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The audit per provider and day (over the {@code (provider, started_at)} indexes of both attempt
 * tables) and the invoice checks, one statement per method except {@link #record}, which stores the
 * check and its drift event in one transaction. Thread-safe.
 */
public final class PgInvoiceChecks implements InvoiceChecks {
    private final Database db;

    public PgInvoiceChecks(Database db) {
        this.db = db;
    }

    @Override
    public Audit audit(String provider, LocalDate day) {
        Instant from = day.atStartOfDay(ZoneOffset.UTC).toInstant();
        Instant to = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        return db.withConnection(c -> {
            BigDecimal usd = BigDecimal.ZERO;
            long attempts = 0;
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT coalesce(sum(cost_usd), 0), count(*) FROM (
                        SELECT cost_usd FROM provider_attempts
                         WHERE provider = ? AND started_at >= ? AND started_at < ? AND billable <> 'no'
                        UNION ALL
                        SELECT cost_usd FROM chat_attempts
                         WHERE provider = ? AND started_at >= ? AND started_at < ? AND billable <> 'no') day
                    """)) {
                bindWindow(ps, provider, from, to);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    usd = rs.getBigDecimal(1);
                    attempts = rs.getLong(2);
                }
            }
            return new Audit(
                    usd,
                    attempts,
                    requestIds(c, provider, from.minus(Duration.ofDays(1)), to.plus(Duration.ofDays(1))));
        });
    }

    private static Set<String> requestIds(Connection c, String provider, Instant from, Instant to) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT provider_request_id FROM provider_attempts
                 WHERE provider = ? AND started_at >= ? AND started_at < ? AND provider_request_id IS NOT NULL
                UNION
                SELECT provider_request_id FROM chat_attempts
                 WHERE provider = ? AND started_at >= ? AND started_at < ? AND provider_request_id IS NOT NULL
                """)) {
            bindWindow(ps, provider, from, to);
            Set<String> ids = new HashSet<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
            return ids;
        }
    }

    private static void bindWindow(PreparedStatement ps, String provider, Instant from, Instant to)
            throws SQLException {
        for (int i = 0; i < 2; i++) {
            ps.setString(1 + 3 * i, provider);
            ps.setTimestamp(2 + 3 * i, JobRows.timestamp(from));
            ps.setTimestamp(3 + 3 * i, JobRows.timestamp(to));
        }
    }

    @Override
    public boolean claim(String provider, LocalDate day, Instant now, Duration staleAfter) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO invoice_checks (provider, day, claimed_at) VALUES (?, ?, ?)
                    ON CONFLICT (provider, day) DO UPDATE SET claimed_at = EXCLUDED.claimed_at
                     WHERE invoice_checks.checked_at IS NULL AND invoice_checks.claimed_at < ?
                    """)) {
                ps.setString(1, provider);
                ps.setObject(2, day);
                ps.setTimestamp(3, JobRows.timestamp(now));
                ps.setTimestamp(4, JobRows.timestamp(now.minus(staleAfter)));
                return ps.executeUpdate() == 1;
            }
        });
    }

    @Override
    public void release(String provider, LocalDate day) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "DELETE FROM invoice_checks WHERE provider = ? AND day = ? AND checked_at IS NULL")) {
                ps.setString(1, provider);
                ps.setObject(2, day);
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public void record(InvoiceCheck check, boolean drift) {
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO invoice_checks (provider, day, claimed_at, checked_at, audit_usd, vendor_usd,
                        capture_rate, unmatched, unmatched_count, itemized)
                    VALUES (?, ?, ?, ?, ?, ?, ?,
                            (SELECT coalesce(jsonb_agg(jsonb_build_object(
                                        'request_id', u.request_id, 'cost_usd', u.cost_usd::text, 'at', u.at) ORDER BY u.n),
                                    '[]'::jsonb)
                               FROM unnest(?::text[], ?::numeric[], ?::timestamptz[]) WITH ORDINALITY
                                    AS u(request_id, cost_usd, at, n)),
                            ?, ?)
                    ON CONFLICT (provider, day) DO UPDATE SET checked_at = EXCLUDED.checked_at,
                        audit_usd = EXCLUDED.audit_usd, vendor_usd = EXCLUDED.vendor_usd,
                        capture_rate = EXCLUDED.capture_rate, unmatched = EXCLUDED.unmatched,
                        unmatched_count = EXCLUDED.unmatched_count, itemized = EXCLUDED.itemized
                    """)) {
                ps.setString(1, check.provider());
                ps.setObject(2, check.day());
                ps.setTimestamp(3, JobRows.timestamp(check.checkedAt()));
                ps.setTimestamp(4, JobRows.timestamp(check.checkedAt()));
                ps.setBigDecimal(5, check.auditUsd());
                ps.setBigDecimal(6, check.vendorUsd());
                ps.setBigDecimal(7, check.captureRate().orElse(null));
                List<UsageAnswer.Charge> unmatched = check.unmatched();
                ps.setArray(
                        8,
                        c.createArrayOf(
                                "text",
                                unmatched.stream()
                                        .map(ch -> ch.requestId().orElse(null))
                                        .toArray()));
                ps.setArray(
                        9,
                        c.createArrayOf(
                                "numeric",
                                unmatched.stream()
                                        .map(UsageAnswer.Charge::costUsd)
                                        .toArray()));
                ps.setArray(
                        10,
                        c.createArrayOf(
                                "timestamptz",
                                unmatched.stream()
                                        .map(ch -> JobRows.timestamp(ch.at()))
                                        .toArray()));
                ps.setInt(11, check.unmatchedCount());
                ps.setBoolean(12, check.itemized());
                ps.executeUpdate();
            }
            if (drift) {
                driftEvent(c, check);
            }
            return null;
        });
    }

    /** Once per provider and day (the unique index over typed, dated events). */
    private static void driftEvent(Connection c, InvoiceCheck check) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO provider_events (provider, type, detail, day, at)
                VALUES (?, 'invoice.drift',
                        jsonb_build_object('day', ?::text, 'audit_usd', ?::text, 'vendor_usd', ?::text,
                                           'capture_rate', ?::text, 'unmatched', ?::text),
                        ?, ?)
                ON CONFLICT (provider, type, day) WHERE day IS NOT NULL DO NOTHING
                """)) {
            ps.setString(1, check.provider());
            ps.setString(2, check.day().toString());
            ps.setString(3, check.auditUsd().toPlainString());
            ps.setString(4, check.vendorUsd().toPlainString());
            ps.setString(5, check.captureRate().map(BigDecimal::toPlainString).orElse("n/a"));
            ps.setString(6, Integer.toString(check.unmatchedCount()));
            ps.setObject(7, check.day());
            ps.setTimestamp(8, JobRows.timestamp(check.checkedAt()));
            ps.executeUpdate();
        }
    }

    @Override
    public List<InvoiceCheck> recent(Optional<String> provider, int limit) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT provider, day, checked_at, audit_usd, vendor_usd, capture_rate, unmatched_count, itemized,
                           ARRAY(SELECT e ->> 'request_id' FROM jsonb_array_elements(unmatched) WITH ORDINALITY x(e, n)
                                  ORDER BY n) AS ids,
                           ARRAY(SELECT (e ->> 'cost_usd')::numeric FROM jsonb_array_elements(unmatched)
                                  WITH ORDINALITY x(e, n) ORDER BY n) AS costs,
                           ARRAY(SELECT (e ->> 'at')::timestamptz FROM jsonb_array_elements(unmatched)
                                  WITH ORDINALITY x(e, n) ORDER BY n) AS ats
                      FROM invoice_checks
                     WHERE checked_at IS NOT NULL AND (?::text IS NULL OR provider = ?)
                     ORDER BY day DESC, provider LIMIT ?
                    """)) {
                ps.setString(1, provider.orElse(null));
                ps.setString(2, provider.orElse(null));
                ps.setInt(3, limit);
                List<InvoiceCheck> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(check(rs));
                    }
                }
                return out;
            }
        });
    }

    private static InvoiceCheck check(ResultSet rs) throws SQLException {
        List<UsageAnswer.Charge> unmatched = new ArrayList<>();
        String[] ids = (String[]) rs.getArray("ids").getArray();
        BigDecimal[] costs = (BigDecimal[]) rs.getArray("costs").getArray();
        java.sql.Timestamp[] ats = (java.sql.Timestamp[]) rs.getArray("ats").getArray();
        for (int i = 0; i < ids.length; i++) {
            unmatched.add(new UsageAnswer.Charge(Optional.ofNullable(ids[i]), costs[i], ats[i].toInstant()));
        }
        return new InvoiceCheck(
                rs.getString("provider"),
                rs.getObject("day", LocalDate.class),
                rs.getBigDecimal("audit_usd"),
                rs.getBigDecimal("vendor_usd"),
                Optional.ofNullable(rs.getBigDecimal("capture_rate")),
                unmatched,
                rs.getInt("unmatched_count"),
                rs.getBoolean("itemized"),
                JobRows.instant(rs, "checked_at"));
    }
}
