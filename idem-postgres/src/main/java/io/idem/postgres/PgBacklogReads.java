package io.idem.postgres;

import io.idem.core.spi.BacklogReads;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Optional;

/**
 * The backlog in one statement: each count walks a partial index ({@code jobs_queued},
 * {@code jobs_running_lease}, {@code jobs_review_queue}, and the two {@code *_billable_unknown}
 * indexes), so its cost follows the backlog, not the history. Thread-safe.
 */
public final class PgBacklogReads implements BacklogReads {
    private final Database db;

    public PgBacklogReads(Database db) {
        this.db = db;
    }

    @Override
    public Backlog backlog() {
        return db.withConnection(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT (SELECT count(*) FROM jobs WHERE state = 'queued') AS queued,
                           (SELECT count(*) FROM jobs WHERE state = 'running') AS running,
                           (SELECT count(*) FROM jobs WHERE state = 'manual_review') AS in_review,
                           (SELECT min(review_since) FROM jobs WHERE state = 'manual_review') AS oldest_review,
                           (SELECT count(*) FROM provider_attempts WHERE billable = 'unknown')
                             + (SELECT count(*) FROM chat_attempts WHERE billable = 'unknown') AS unknown_attempts,
                           (SELECT coalesce(sum(cost_usd), 0) FROM provider_attempts WHERE billable = 'unknown')
                             + (SELECT coalesce(sum(cost_usd), 0) FROM chat_attempts WHERE billable = 'unknown')
                             AS at_risk
                    """);
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                BigDecimal atRisk = rs.getBigDecimal("at_risk");
                return new Backlog(
                        rs.getLong("queued"),
                        rs.getLong("running"),
                        rs.getLong("in_review"),
                        Optional.ofNullable(JobRows.instant(rs, "oldest_review")),
                        rs.getLong("unknown_attempts"),
                        atRisk == null ? BigDecimal.ZERO : atRisk);
            }
        });
    }
}
