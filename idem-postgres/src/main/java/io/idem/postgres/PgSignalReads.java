package io.idem.postgres;

import io.idem.core.alert.Signals;
import io.idem.core.spi.BacklogReads;
import io.idem.core.spi.SignalReads;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;

/**
 * The threshold rules' numbers. Every read over the attempt tables names the configured providers,
 * so it walks the {@code (provider, started_at)} indexes over the window only; the trailing days'
 * spend does not change once the day is over, so it is read once an hour. Thread-safe.
 */
public final class PgSignalReads implements SignalReads {
    private static final Duration TRAILING_FRESH_FOR = Duration.ofHours(1);

    private final Database db;
    private final BacklogReads backlog;
    private volatile Trailing trailing;

    /** The trailing days' average spend per provider, as read at {@code readAt} for {@code today}. */
    private record Trailing(LocalDate today, int days, Instant readAt, Map<String, BigDecimal> average) {}

    public PgSignalReads(Database db, BacklogReads backlog) {
        this.db = db;
        this.backlog = backlog;
    }

    @Override
    public Signals read(Signals.Query query, Instant now) {
        BacklogReads.Backlog waiting = backlog.backlog();
        Duration oldest = waiting.oldestReviewSince()
                .map(since -> Duration.between(since, now))
                .filter(d -> !d.isNegative())
                .orElse(Duration.ZERO);
        return db.withConnection(c -> {
            Array providers = c.createArrayOf("text", query.providers().toArray());
            return new Signals(
                    calls(c, providers, now.minus(query.errorWindow())),
                    requests(c, providers, now.minus(query.fallbackWindow())),
                    spend(c, providers, query.trailingDays(), now),
                    waiting.moneyAtRiskUsd(),
                    oldest,
                    served(c, providers, now.minus(query.staticWindow())));
        });
    }

    private static Map<String, Signals.Counts> calls(Connection c, Array providers, Instant from) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT provider, count(*) AS total,
                       count(*) FILTER (WHERE error_class IN ('unavailable', 'unconfirmed', 'adapter_fault')) AS bad
                  FROM provider_attempts
                 WHERE provider = ANY(?) AND started_at >= ? AND status NOT IN ('sending', 'submitted')
                 GROUP BY provider
                UNION ALL
                SELECT provider, count(*),
                       count(*) FILTER (WHERE outcome IN ('unavailable', 'unconfirmed', 'adapter_fault'))
                  FROM chat_attempts
                 WHERE provider = ANY(?) AND started_at >= ? AND outcome <> 'skipped'
                 GROUP BY provider
                """)) {
            bindTwice(ps, providers, from);
            Map<String, Signals.Counts> out = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.merge(
                            rs.getString(1),
                            new Signals.Counts(rs.getLong(2), rs.getLong(3)),
                            (a, b) -> new Signals.Counts(a.total() + b.total(), a.bad() + b.bad()));
                }
            }
            return out;
        }
    }

    private static Signals.Counts requests(Connection c, Array providers, Instant from) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT count(*), count(*) FILTER (WHERE n > 1) FROM (
                    SELECT job_id, count(*) AS n FROM provider_attempts
                     WHERE provider = ANY(?) AND started_at >= ? GROUP BY job_id
                    UNION ALL
                    SELECT call_id, count(*) FROM chat_attempts
                     WHERE provider = ANY(?) AND started_at >= ? GROUP BY call_id) requests
                """)) {
            bindTwice(ps, providers, from);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Signals.Counts(rs.getLong(1), rs.getLong(2));
            }
        }
    }

    private Map<String, Signals.DailySpend> spend(Connection c, Array providers, int days, Instant now)
            throws SQLException {
        if (days == 0) {
            return Map.of();
        }
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        Instant midnight = today.atStartOfDay(ZoneOffset.UTC).toInstant();
        Trailing known = trailing;
        if (known == null
                || !known.today().equals(today)
                || known.days() != days
                || known.readAt().plus(TRAILING_FRESH_FOR).isBefore(now)) {
            known = new Trailing(
                    today, days, now, average(daily(c, providers, midnight.minus(days, ChronoUnit.DAYS), midnight)));
            trailing = known;
        }
        Map<String, BigDecimal> spentToday = total(daily(c, providers, midnight, now.plusSeconds(1)));
        Map<String, Signals.DailySpend> out = new HashMap<>();
        for (String provider : union(spentToday, known.average())) {
            out.put(
                    provider,
                    new Signals.DailySpend(
                            spentToday.getOrDefault(provider, BigDecimal.ZERO),
                            known.average().getOrDefault(provider, BigDecimal.ZERO)));
        }
        return out;
    }

    private static java.util.Set<String> union(Map<String, ?> a, Map<String, ?> b) {
        java.util.Set<String> keys = new java.util.HashSet<>(a.keySet());
        keys.addAll(b.keySet());
        return keys;
    }

    /** Spend per provider and UTC day between two instants: billed and unknown, jobs and chat. */
    private static Map<String, Map<LocalDate, BigDecimal>> daily(
            Connection c, Array providers, Instant from, Instant to) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT provider, (started_at AT TIME ZONE 'UTC')::date AS day, sum(cost_usd) FROM (
                    SELECT provider, cost_usd, started_at FROM provider_attempts
                     WHERE provider = ANY(?) AND started_at >= ? AND started_at < ? AND billable <> 'no'
                    UNION ALL
                    SELECT provider, cost_usd, started_at FROM chat_attempts
                     WHERE provider = ANY(?) AND started_at >= ? AND started_at < ? AND billable <> 'no') spent
                 GROUP BY provider, day
                """)) {
            for (int i = 0; i < 2; i++) {
                ps.setArray(1 + 3 * i, providers);
                ps.setTimestamp(2 + 3 * i, JobRows.timestamp(from));
                ps.setTimestamp(3 + 3 * i, JobRows.timestamp(to));
            }
            Map<String, Map<LocalDate, BigDecimal>> out = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getString(1), p -> new HashMap<>())
                            .put(rs.getObject(2, LocalDate.class), rs.getBigDecimal(3));
                }
            }
            return out;
        }
    }

    private static Map<String, BigDecimal> total(Map<String, Map<LocalDate, BigDecimal>> daily) {
        Map<String, BigDecimal> out = new HashMap<>();
        daily.forEach(
                (provider, days) -> out.put(provider, days.values().stream().reduce(BigDecimal.ZERO, BigDecimal::add)));
        return out;
    }

    /**
     * The average day of spend per provider over the days it had any (a provider added three days
     * ago averages over three days, not seven).
     */
    private static Map<String, BigDecimal> average(Map<String, Map<LocalDate, BigDecimal>> daily) {
        Map<String, BigDecimal> out = new HashMap<>();
        total(daily)
                .forEach((provider, sum) -> out.put(
                        provider,
                        sum.divide(BigDecimal.valueOf(daily.get(provider).size()), 9, RoundingMode.HALF_UP)));
        return out;
    }

    private static Map<String, Long> served(Connection c, Array providers, Instant from) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT provider, count(*) FROM chat_attempts
                 WHERE provider = ANY(?) AND started_at >= ? AND outcome = 'served'
                 GROUP BY provider
                """)) {
            ps.setArray(1, providers);
            ps.setTimestamp(2, JobRows.timestamp(from));
            Map<String, Long> out = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getLong(2));
                }
            }
            return out;
        }
    }

    private static void bindTwice(PreparedStatement ps, Array providers, Instant from) throws SQLException {
        ps.setArray(1, providers);
        ps.setTimestamp(2, JobRows.timestamp(from));
        ps.setArray(3, providers);
        ps.setTimestamp(4, JobRows.timestamp(from));
    }
}
