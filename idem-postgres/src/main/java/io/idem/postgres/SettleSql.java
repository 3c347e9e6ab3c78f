package io.idem.postgres;

import io.idem.core.outcome.Outcome;
import io.idem.core.spi.JobMove;
import io.idem.core.spi.Lease;
import io.idem.core.spi.Settlement;
import io.idem.core.spi.StoredAsset;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * A called attempt's settle. One that ends the job's run is one statement: the attempt's outcome,
 * its kept results and the job's fenced move with its event. Every part of a data-modifying WITH
 * runs exactly once whether or not another reads it, so the outcome and the results land on the
 * attempt even when the lease is gone (a late result is never dropped), and only the move's row
 * count says whether the lease held, as when they were three statements.
 */
final class SettleSql {
    private static final String OUTCOME = """
            UPDATE provider_attempts
               SET status = ?, error_class = ?, error_code = ?, http_status = ?,
                   provider_request_id = COALESCE(?, provider_request_id), latency_ms = ?,
                   billable = ?, cost_usd = ?, finished_at = ?,
                   billing_known_at = COALESCE(billing_known_at, CASE WHEN ?::text <> 'unknown' THEN ?::timestamptz END)
             WHERE id = ?
            """;

    /** Kept results as rows {@code k}, from six arrays bound by {@link #bindAssetRows}. */
    static final String ASSET_ROWS = """
            unnest(?::uuid[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::bytea[])
                AS k (id, mime_type, bytes, sha256, location, content)""";

    static final String SETTLE_AND_END = """
            WITH outcome AS (%s RETURNING id, job_id
            ), kept AS (
                INSERT INTO assets (id, job_id, attempt_id, mime_type, bytes, sha256, location, created_at, content)
                SELECT k.id, o.job_id, o.id, k.mime_type, k.bytes, k.sha256, k.location, ?, k.content
                  FROM outcome o, %s
                ON CONFLICT (id) DO NOTHING
            ), %s""".formatted(OUTCOME, ASSET_ROWS, JobTransitionsSql.MOVE_TAIL);

    private SettleSql() {}

    /** Records the outcome alone (a failover: the job's move is an event, written apart). */
    static void recordOutcome(Connection c, Settlement settlement, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(OUTCOME)) {
            bindOutcome(ps, settlement, now);
            ps.executeUpdate();
        }
    }

    /**
     * Records the outcome and results and ends the job's run as the settlement says, in one
     * statement; {@code then} gets whether the move held ({@code false}: the lease was lost) and
     * may write more beside it. Settles of many jobs that share a commit share a round trip.
     */
    static <T> BatchedWork<T> settleAndEnd(
            Lease lease, Settlement settlement, String actor, Instant now, AfterMove<T> then) {
        JobTransitionsSql.End end = JobTransitionsSql.endOf(settlement);
        List<StoredAsset> kept = switch (settlement.move()) {
            case JobMove.Succeed succeed -> succeed.assets();
            case JobMove.Fail fail -> fail.withheld();
            default -> List.of();
        };
        return new BatchedWork<>(
                SETTLE_AND_END,
                (c, ps) -> {
                    int i = bindOutcome(ps, settlement, now);
                    ps.setTimestamp(i++, JobRows.timestamp(now));
                    i = bindAssetRows(c, ps, i, kept);
                    JobTransitionsSql.bindMove(ps, i, lease, end, actor, now);
                },
                (c, rows) -> then.moved(
                        c,
                        UnexpectedRowCountException.oneRow(
                                rows, "settle to " + end.to().wire(), lease.jobId())));
    }

    /** What follows a settle's move on the same connection, in the same transaction. */
    @FunctionalInterface
    interface AfterMove<T> {
        T moved(Connection connection, boolean held) throws SQLException;
    }

    /** Binds {@link #ASSET_ROWS} from parameter {@code from}; returns the next. */
    static int bindAssetRows(Connection c, PreparedStatement ps, int from, List<StoredAsset> kept) throws SQLException {
        int i = from;
        ps.setArray(
                i++, c.createArrayOf("uuid", kept.stream().map(StoredAsset::id).toArray()));
        ps.setArray(
                i++,
                c.createArrayOf("text", kept.stream().map(StoredAsset::mimeType).toArray()));
        ps.setArray(
                i++,
                c.createArrayOf("bigint", kept.stream().map(StoredAsset::bytes).toArray()));
        ps.setArray(
                i++,
                c.createArrayOf("text", kept.stream().map(StoredAsset::sha256).toArray()));
        ps.setArray(
                i++,
                c.createArrayOf("text", kept.stream().map(StoredAsset::location).toArray()));
        ps.setArray(
                i++,
                c.createArrayOf("bytea", kept.stream().map(StoredAsset::content).toArray(byte[][]::new)));
        return i;
    }

    /** Binds {@link #OUTCOME} from the first parameter; returns the next. */
    private static int bindOutcome(PreparedStatement ps, Settlement settlement, Instant now) throws SQLException {
        Outcome outcome = settlement.outcome();
        ps.setString(1, outcome.attemptStatus().wire());
        ps.setString(2, outcome.errorClass());
        ps.setString(3, outcome.errorCode());
        ps.setInt(4, outcome.httpStatus());
        ps.setString(5, outcome.providerRequestId().orElse(null));
        ps.setLong(6, settlement.latencyMs());
        ps.setString(7, outcome.billable().wire());
        ps.setBigDecimal(8, settlement.costUsd());
        ps.setTimestamp(9, JobRows.timestamp(now));
        ps.setString(10, outcome.billable().wire());
        ps.setTimestamp(11, JobRows.timestamp(now));
        ps.setObject(12, settlement.attemptId());
        return 13;
    }
}
