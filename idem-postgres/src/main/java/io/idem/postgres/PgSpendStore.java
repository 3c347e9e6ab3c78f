package io.idem.postgres;

import io.idem.core.budget.BudgetScope;
import io.idem.core.budget.Hold;
import io.idem.core.budget.HoldRequest;
import io.idem.core.budget.SpendStore;
import io.idem.core.domain.Billable;
import io.idem.core.spi.KeySpend;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Budgets as hard caps on PostgreSQL: holds and their ledger ({@code budget_holds}, {@code
 * budget_ledger}), threshold events once per budget, period and threshold ({@code budget_events},
 * a provider's also in {@code provider_events}), and key spend from the audit. The statements are
 * in {@link BudgetSql}. Thread-safe.
 */
public final class PgSpendStore implements SpendStore, KeySpend {
    /** How far back the sweeper looks for unknown job holds whose attempt has since been decided. */
    private static final Duration RESYNC_WITHIN = Duration.ofDays(35);

    private final Database db;

    public PgSpendStore(Database db) {
        this.db = db;
    }

    @Override
    public Hold tryHold(HoldRequest request) {
        return db.withConnection(c -> {
            if (budgetsOf(c, BudgetSql.OPEN, request) == 0) {
                return new Hold.Uncapped();
            }
            try (PreparedStatement ps = c.prepareStatement(BudgetSql.HOLD)) {
                int i = caps(ps, request);
                ps.setBigDecimal(i++, request.expectedUsd());
                ps.setObject(i++, request.id());
                ps.setString(i++, request.forJob() ? "job" : "chat");
                ps.setString(i++, request.provider());
                ps.setTimestamp(i++, JobRows.timestamp(request.heldUntil()));
                ps.setTimestamp(i, JobRows.timestamp(request.at()));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    String refused = rs.getString(1);
                    if (refused != null) {
                        return new Hold.Refused(scope(refused), rs.getBigDecimal(2));
                    }
                    return rs.getInt(3) == 1 ? new Hold.Held() : new Hold.Uncapped();
                }
            }
        });
    }

    private static int budgetsOf(Connection c, String sql, HoldRequest request) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            caps(ps, request);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Sets the parameters of {@code BudgetSql.CAPS}; returns the next parameter's index. */
    private static int caps(PreparedStatement ps, HoldRequest request) throws SQLException {
        LocalDate day = request.at().atZone(ZoneOffset.UTC).toLocalDate();
        ps.setString(1, request.provider());
        if (request.providerCapUsd().isPresent()) {
            ps.setBigDecimal(2, request.providerCapUsd().get());
        } else {
            ps.setNull(2, Types.NUMERIC);
        }
        ps.setObject(3, request.jobId().orElse(null), Types.OTHER);
        ps.setObject(4, request.apiKeyId().orElse(null), Types.OTHER);
        ps.setObject(5, day);
        ps.setObject(6, day.withDayOfMonth(1));
        return 7;
    }

    private static BudgetScope scope(String scope) {
        if (scope.startsWith("provider:")) {
            return BudgetScope.PROVIDER;
        }
        return scope.endsWith(":month") ? BudgetScope.KEY_MONTHLY : BudgetScope.KEY_DAILY;
    }

    @Override
    public void settle(UUID holdId, Billable billable, BigDecimal costUsd, Instant at) {
        db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(BudgetSql.SETTLE)) {
                ps.setObject(1, holdId);
                ps.setString(2, billable.wire());
                ps.setBigDecimal(3, costUsd);
                ps.setTimestamp(4, JobRows.timestamp(at));
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public Spend providerSpend(String provider, LocalDate day) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(BudgetSql.PROVIDER_SPEND)) {
                var since = JobRows.timestamp(day.atStartOfDay(ZoneOffset.UTC).toInstant());
                ps.setString(1, provider);
                ps.setObject(2, day);
                ps.setString(3, provider);
                ps.setTimestamp(4, since);
                ps.setString(5, provider);
                ps.setTimestamp(6, since);
                ps.setString(7, provider);
                ps.setObject(8, day);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return new Spend(rs.getBigDecimal(1), rs.getBigDecimal(2));
                }
            }
        });
    }

    /** A hold the sweeper settles, with what it settles to. */
    private record Due(UUID id, Billable billable, BigDecimal cost) {}

    @Override
    public int sweepHolds(Instant now, int limit) {
        List<Due> due = db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(BudgetSql.DUE)) {
                ps.setTimestamp(1, JobRows.timestamp(now));
                ps.setInt(2, limit);
                ps.setTimestamp(3, JobRows.timestamp(now.minus(RESYNC_WITHIN)));
                ps.setInt(4, limit);
                List<Due> found = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        found.add(due(rs));
                    }
                }
                return found;
            }
        });
        due.forEach(d -> settle(d.id(), d.billable(), d.cost(), now));
        return due.size();
    }

    /** A job's hold settles as its attempt did (released if never written); a chat hold as unknown. */
    private static Due due(ResultSet rs) throws SQLException {
        UUID id = rs.getObject("id", UUID.class);
        if (rs.getString("kind").equals("chat")) {
            return new Due(id, Billable.UNKNOWN, rs.getBigDecimal("expected_usd"));
        }
        if (!rs.getBoolean("attempted")) {
            return new Due(id, Billable.NO, BigDecimal.ZERO);
        }
        return new Due(id, Billable.fromWire(rs.getString("billable")), rs.getBigDecimal("cost_usd"));
    }

    @Override
    public BigDecimal keySpendSince(UUID keyId, Instant since) {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement(BudgetSql.KEY_SPEND)) {
                var ts = JobRows.timestamp(since);
                ps.setObject(1, keyId);
                ps.setTimestamp(2, ts);
                ps.setObject(3, keyId);
                ps.setTimestamp(4, ts);
                ps.setTimestamp(5, ts);
                ps.setString(6, keyId.toString());
                ps.setString(7, keyId.toString());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getBigDecimal(1);
                }
            }
        });
    }
}
